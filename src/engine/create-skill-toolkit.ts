/**
 * Skills for a plain AI SDK loop: `streamText({ model, prompt, ...toolkit })`,
 * `generateText({ … ...toolkit })` or `new ToolLoopAgent({ model, ...toolkit })`. The spread brings the
 * skill tools (with `skill_run` on skillrt's executor, the bubblewrap sandbox by default), the
 * instructions, the active tools and a `prepareStep` that re-renders both every step and rewrites the
 * history for the skill session. The developer keeps their own loop.
 */
import { randomUUID } from "node:crypto";
import { type ModelMessage, type StopCondition, stepCountIs, type ToolSet } from "ai";
import type { Catalog } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";
import type { SkillTools } from "../tools/create-skill-tools.js";
import { chooseExecutor, openCatalog, openSkillLayer, type SkillLayerOptions } from "./open-skills.js";
import { createSkillStep } from "./skill-step.js";

/** Options of {@link createSkillToolkit}. */
export interface SkillToolkitOptions extends SkillLayerOptions {
  /** Your instructions, placed before the skill context (`instructions` of the spread). */
  instructions?: string;
  /** Session id (names the workspace). Default: a new UUID. */
  sessionId?: string;
  /** Most steps of the loop (`stopWhen` of the spread). Default 20. */
  maxSteps?: number;
}

/** What the toolkit's `prepareStep` returns every step. */
export interface SkillStepSettings {
  instructions: string;
  activeTools: string[];
  messages: ModelMessage[];
}

/**
 * The spreadable part (enumerable: exactly the AI SDK settings it sets) plus the session behind it and
 * `close()` (not enumerable, so a spread never passes them to the AI SDK).
 */
export interface SkillToolkit {
  /** The skill tools (a live record: script tools of a skill are added when it loads). */
  tools: ToolSet;
  /** Your instructions and the skill catalog (re-rendered each step by {@link prepareStep}). */
  instructions: string;
  /** Tools offered in the first step (re-gated each step by {@link prepareStep}). */
  activeTools: string[];
  /**
   * Before every step: re-renders the instructions (catalog, and loaded bodies in `system` placement),
   * re-gates the tools, and rewrites the history (unloaded skills' results become stubs; skills loaded at
   * start are shown after the first user message). To combine with your own `prepareStep`, call this
   * one from it and merge the results.
   */
  prepareStep(options: { stepNumber: number; messages: ModelMessage[] }): Promise<SkillStepSettings>;
  /** Stops after `maxSteps` steps (default 20): `streamText`/`generateText` alone stop after one. */
  stopWhen: StopCondition<ToolSet>;
  /** The disclosure state: what is loaded, the ledger, snapshots. */
  readonly session: SkillSession;
  readonly catalog: Catalog;
  readonly skillTools: SkillTools;
  /** Deletes the workspace. */
  close(): Promise<void>;
}

/**
 * Builds the toolkit: catalog (default roots as in the CLI), a new skill session, a workspace and
 * executor (`auto`: the sandbox when it works) and the profile's tools, `skill_run` included whenever
 * there is an executor. One toolkit is one conversation: keep it for the conversation's turns.
 */
export async function createSkillToolkit(options: SkillToolkitOptions = {}): Promise<SkillToolkit> {
  const catalog = await openCatalog(options);
  const layer = await openSkillLayer(catalog, options, {
    id: options.sessionId ?? randomUUID(),
    executor: chooseExecutor(options.executor),
  });
  const step = createSkillStep(layer.session, layer.skillTools, {
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
  await step.prepare();
  const first = step.render();
  const prepareStep = async ({
    stepNumber,
    messages,
  }: {
    stepNumber: number;
    messages: ModelMessage[];
  }): Promise<SkillStepSettings> => {
    // A new call of the loop is a new user turn: the frozen catalog (history placement) may change now.
    if (stepNumber === 0) layer.session.refreshCatalog();
    await step.prepare();
    return { ...step.render(), messages: step.messages(messages) };
  };
  const toolkit = {
    tools: step.tools,
    instructions: first.instructions,
    activeTools: first.activeTools,
    prepareStep,
    stopWhen: stepCountIs(options.maxSteps ?? 20),
  };
  return Object.defineProperties(toolkit, {
    session: { value: layer.session, enumerable: false },
    catalog: { value: catalog, enumerable: false },
    skillTools: { value: layer.skillTools, enumerable: false },
    close: { value: () => layer.dispose(), enumerable: false },
  }) as unknown as SkillToolkit;
}
