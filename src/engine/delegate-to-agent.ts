/**
 * Delegation to subagents: runs a task in a child `SkillAgent` with its own conversation, catalog (the
 * parent's, narrowed by the agent's `skills` allowlist), tools (the parent's, narrowed by its `tools`),
 * step limit and workspace, and hands back only the final answer and a summary. Nothing escalates: the
 * child's skills and tools are a subset of its parent's, it has its parent's trust (the same object, so a
 * root trusted during the conversation is trusted in it too), approval mode, executor and pre-render
 * setting, which its definition may only make stricter, and its tool approvals go to the parent's
 * `onApproval`, labelled with the agent. Delegation is bounded: in depth, in children started per turn of
 * the top agent (across all nesting) and in children of one agent running at once.
 */

import { cp, readdir } from "node:fs/promises";
import path from "node:path";
import type { Context } from "@opentelemetry/api";
import type { LanguageModel } from "ai";
import type { AgentDefinition } from "../config/agent-definition.js";
import { describeModel, type ModelConfig } from "../config/model-config.js";
import { DelegationLimitError } from "../errors/delegation-limit-error.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { Executor } from "../exec/executor.js";
import type { Workspace } from "../exec/workspace.js";
import { createSlots } from "../util/create-slots.js";
import { childToolSources, narrowCatalog, narrowSettings, narrowTools } from "./child-parts.js";
import type { EngineEvent, EngineUsage } from "./engine-event.js";
import type { ToolSources } from "./open-tool-sources.js";
import { resolveModel } from "./resolve-model.js";
import type { SkillAgent, SkillAgentOptions } from "./skill-agent.js";
import type { TurnLimit } from "./turn-limit-error.js";

/** Default of {@link DelegationOptions.maxDepth}. */
export const DEFAULT_MAX_DEPTH = 2;
/** Default of {@link DelegationOptions.maxPerTurn}. */
export const DEFAULT_MAX_PER_TURN = 16;
/** Default of {@link DelegationOptions.concurrency}. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * The count of children started in one turn of the top agent, shared by every agent under it (made by the
 * top agent, handed down to its children).
 */
export interface DelegationTurn {
  started: number;
  readonly limit: number;
}

/** How an agent delegates: depth, fan-out, concurrency and the models of agents that name one. */
export interface DelegationOptions {
  /** Deepest chain of subagents: a child of the top agent is at depth 1 (0: no delegation). Default 2. */
  maxDepth?: number;
  /**
   * Most subagents started during one turn of the top agent, counting every level of nesting (and
   * `context: fork` skills); a delegation past it is refused with a message the model reads. Outside a
   * turn (`delegate()`), the count is per call. Default 16.
   */
  maxPerTurn?: number;
  /** Most delegated tasks of one agent running at once; more wait for a slot. Default 4. */
  concurrency?: number;
  /**
   * Models for agents (and `context: fork` skills) whose `model` is an id: a map by id or a resolver. An id
   * neither gives is resolved like the main model (same provider, endpoint and key, that model id) when the
   * agent was made from a `modelConfig`, else passed to the AI SDK as is (its gateway).
   */
  models?: Readonly<Record<string, LanguageModel>> | ((id: string) => LanguageModel | undefined);
  /** Depth of this agent; set by the parent for its children. Default 0. */
  depth?: number;
  /** The top agent's count of children started this turn; set by the parent for its children. */
  turn?: DelegationTurn;
}

/** What a delegated task gives back: the answer and what it took. */
export interface DelegationResult {
  agent: string;
  /** The child's conversation id (saved in the parent's store when there is one). */
  sessionId: string;
  /** The child's final answer. */
  text: string;
  steps: number;
  usage: EngineUsage;
  /** Skills the child loaded, in order. */
  skillsLoaded: string[];
  /** Files the child's runs left in its `out/`, copied to the parent's workspace (paths relative to it). */
  files: string[];
  aborted: boolean;
  stepLimitReached: boolean;
  /** Set when the child's turn was stopped by its output cap or deadline (its `text` is then unfinished). */
  limitReached?: TurnLimit;
}

/** Options of one delegated task. */
export interface DelegateOptions {
  abortSignal?: AbortSignal;
  /** Receives the child's events, tagged (besides the parent's current turn, when one is running). */
  onEvent?: (event: EngineEvent) => void;
  /** Overrides the agent's model (`context: fork` skills' `model:`). */
  model?: string;
}

/** The delegation side of one agent. */
export interface Delegator {
  /** The agents it may delegate to, sorted by name. */
  readonly agents: readonly AgentDefinition[];
  readonly depth: number;
  readonly maxDepth: number;
  /**
   * Starts a new count of children per turn (the top agent, at the start of each turn; a child keeps
   * counting in its parent's).
   */
  beginTurn(): void;
  /**
   * Runs `task` in a child of agent `name`. Throws `SkillrtError` (`invalid-argument`) for an unknown agent
   * or past the depth limit, `DelegationLimitError` past the limit of children per turn; a provider failure
   * of the child rejects with its `ProviderError`.
   */
  run(name: string, task: string, parentCallId: string, options?: DelegateOptions): Promise<DelegationResult>;
  /** Resolves when no child of this agent runs (an aborted turn waits here for its children to end). */
  idle(): Promise<void>;
  /** As {@link run}, with a definition outside the listed agents (the default agent of a forked skill). */
  runDefinition(
    definition: AgentDefinition,
    task: string,
    parentCallId: string,
    options?: DelegateOptions,
  ): Promise<DelegationResult>;
}

/** What the delegator takes from the parent agent. */
export interface DelegationParent {
  options: SkillAgentOptions;
  definitions: Readonly<Record<string, AgentDefinition>>;
  create: (options: SkillAgentOptions) => Promise<SkillAgent>;
  executor: Executor | undefined;
  toolSources: ToolSources;
  /** The parent's current conversation id and workspace (they change on `reset`). */
  conversation: () => { id: string; workspace: Workspace | undefined };
  /** The parent's current turn's emitter, when a turn runs. */
  emit: () => ((event: EngineEvent) => void) | undefined;
  /** The span context of the parent's tool call `callId` while it runs: the child's turn span goes under it. */
  traceContext?: (callId: string) => Context | undefined;
}

/**
 * The agent a `context: fork` skill runs in when its `agent:` names none: every skill and tool of its
 * parent, the parent's model.
 */
export const GENERAL_AGENT: AgentDefinition = Object.freeze({
  name: "general-purpose",
  description: "General-purpose agent for self-contained tasks.",
  instructions: "",
  model: "inherit",
  source: "default",
});

/** Instructions of an agent whose definition has none (the default general agent among them). */
export const DEFAULT_AGENT_INSTRUCTIONS =
  "You are a subagent running in skillrt: you were given one task by another agent. Do it with the skills " +
  "below (load a skill before following it, run its scripts rather than guessing their output), then answer " +
  "with the result only: your answer is all the other agent will see.";

/** The delegator of the agent made from `parent`. */
export function createDelegator(parent: DelegationParent): Delegator {
  const delegation = parent.options.delegation ?? {};
  const depth = delegation.depth ?? 0;
  const maxDepth = delegation.maxDepth ?? DEFAULT_MAX_DEPTH;
  const slots = createSlots(Math.max(1, delegation.concurrency ?? DEFAULT_CONCURRENCY));
  const inheritedTurn = delegation.turn;
  let turn: DelegationTurn = inheritedTurn ?? newTurn(delegation);
  const agents = Object.values(parent.definitions).sort((a, b) => a.name.localeCompare(b.name));
  let count = 0;
  const inFlight = new Set<Promise<void>>();

  const run: Delegator["run"] = async (name, task, parentCallId, runOptions = {}) => {
    const definition = parent.definitions[name];
    if (definition === undefined) {
      throw new SkillrtError({
        code: "invalid-argument",
        message: `No agent named '${name}'. Available agents: ${agents.map((a) => a.name).join(", ") || "none"}.`,
      });
    }
    return runDefinition(definition, task, parentCallId, runOptions);
  };

  const runDefinition: Delegator["runDefinition"] = async (
    definition,
    task,
    parentCallId,
    runOptions = {},
  ) => {
    const { name } = definition;
    if (depth + 1 > maxDepth) {
      throw new SkillrtError({
        code: "invalid-argument",
        message:
          `Cannot delegate to '${name}': this agent is at depth ${depth} and subagents may nest at most ` +
          `${maxDepth} deep (delegation.maxDepth). Do the task yourself instead.`,
      });
    }
    // Counted before waiting for a slot, synchronously: calls made in one step all see the count so far.
    const counted = turn;
    if (counted.started >= counted.limit)
      throw new DelegationLimitError({ agent: name, started: counted.started, limit: counted.limit });
    counted.started++;
    const release = await slots.acquire(runOptions.abortSignal);
    const running = runChild(definition, task, parentCallId, ++count, runOptions, counted);
    const done = running.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(done);
    try {
      return await running;
    } finally {
      inFlight.delete(done);
      release();
    }
  };

  const runChild = async (
    definition: AgentDefinition,
    task: string,
    parentCallId: string,
    n: number,
    runOptions: DelegateOptions,
    childTurn: DelegationTurn,
  ): Promise<DelegationResult> => {
    const parentOptions = parent.options;
    const { id: parentId, workspace: parentWorkspace } = parent.conversation();
    const emitParent = parent.emit();
    const tag = (event: EngineEvent): void => {
      emitParent?.(event);
      runOptions.onEvent?.(event);
    };
    const modelId = runOptions.model ?? definition.model;
    const model = modelFor(modelId, parentOptions, delegation);
    const sessionId = `${parentId}.agent.${definition.name}.${safeId(parentCallId)}.${n}`;
    const label = { agent: definition.name, parentCallId, depth: depth + 1 };
    const skillsLoaded: string[] = [];
    let step = 0;
    const settings = narrowSettings(
      {
        approval: parent.toolSources.approval.mode ?? "unlisted",
        executor: parent.executor,
        shellPreRender: parentOptions.shellPreRender !== false,
      },
      definition,
    );
    const child = await parent.create({
      ...inherited(parentOptions),
      model: model.model,
      ...(model.modelConfig === undefined ? {} : { modelConfig: model.modelConfig }),
      catalog: narrowCatalog(parentOptions.catalog, definition.skills),
      executor: settings.executor ?? false,
      shellPreRender: settings.shellPreRender,
      instructions: definition.instructions === "" ? DEFAULT_AGENT_INSTRUCTIONS : definition.instructions,
      sessionId,
      toolSources: childToolSources(parent.toolSources, definition, settings.approval),
      ...(definition.preload === undefined ? {} : { activeSkills: definition.preload }),
      ...(narrowTools(parentOptions.tools, definition.tools, definition.disallowedTools) ?? {}),
      ...((definition.maxSteps ?? parentOptions.maxSteps) === undefined
        ? {}
        : { maxSteps: definition.maxSteps ?? parentOptions.maxSteps }),
      agents: parent.definitions,
      name: definition.name,
      // The AI SDK's own spans too, when the parent turned them on (other call options are the parent model's).
      ...(parentOptions.callOptions?.experimental_telemetry === undefined
        ? {}
        : { callOptions: { experimental_telemetry: parentOptions.callOptions.experimental_telemetry } }),
      delegation: { ...delegation, depth: depth + 1, turn: childTurn },
      // A child's conversation is never resumed; the files it made are copied into the parent's workspace,
      // which keeps them.
      workspaceFiles: false,
      onEvent: (event) => {
        if (event.type === "skill-load") skillsLoaded.push(event.name);
        if (event.type === "step-start") step = event.step;
        tag({ type: "agent-event", step, ...label, event });
      },
    });
    tag({
      type: "agent-start",
      step: 0,
      ...label,
      sessionId,
      model: model.label,
      task,
      ...(settings.narrowed.length === 0 ? {} : { narrowed: settings.narrowed }),
    });
    let outcome: DelegationResult | undefined;
    let failure: unknown;
    try {
      const traceContext = parent.traceContext?.(parentCallId);
      const result = await child.send(task, {
        ...(runOptions.abortSignal === undefined ? {} : { abortSignal: runOptions.abortSignal }),
        ...(traceContext === undefined ? {} : { traceContext }),
      });
      const files = await collectFiles(child, definition.name, n, parentWorkspace);
      outcome = {
        agent: definition.name,
        sessionId,
        text: result.text,
        steps: result.steps,
        usage: result.usage,
        skillsLoaded: [...new Set(skillsLoaded)],
        files,
        aborted: result.aborted,
        stepLimitReached: result.stepLimitReached,
        ...(result.limitReached === undefined ? {} : { limitReached: result.limitReached }),
      };
      return outcome;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      await child.close().catch(() => undefined);
      tag({
        type: "agent-end",
        step,
        ...label,
        sessionId,
        usage: outcome?.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        steps: outcome?.steps ?? 0,
        skillsLoaded: outcome?.skillsLoaded ?? [...new Set(skillsLoaded)],
        files: outcome?.files ?? [],
        aborted: outcome?.aborted ?? runOptions.abortSignal?.aborted === true,
        ...(failure === undefined
          ? {}
          : { error: failure instanceof Error ? failure.message : String(failure) }),
      });
    }
  };

  const idle = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.all(inFlight);
  };
  const beginTurn = (): void => {
    if (inheritedTurn === undefined) turn = newTurn(delegation);
  };
  return { agents, depth, maxDepth, beginTurn, run, runDefinition, idle };
}

function newTurn(delegation: DelegationOptions): DelegationTurn {
  return { started: 0, limit: Math.max(0, delegation.maxPerTurn ?? DEFAULT_MAX_PER_TURN) };
}

/**
 * The parent's settings a child keeps: how skills are shown and run, and its trust (the same object: its
 * decisions, and roots trusted during the conversation, hold in the child), never its conversation or
 * store lock.
 */
function inherited(options: SkillAgentOptions): Partial<SkillAgentOptions> {
  const keep = [
    "trust",
    "profile",
    "placement",
    "catalogBudget",
    "contextWindow",
    "maxActive",
    "allow",
    "deny",
    "run",
    "cwd",
    "env",
    "store",
    "lockTimeoutMs",
    // A subagent's calls and turns are bounded as its parent's are (the parent's deadline also ends them).
    "maxOutputTokens",
    "turnTimeoutMs",
    "saveRetryMs",
    // Its spans go where the parent's go.
    "tracer",
    "tracerProvider",
  ] as const;
  const child: Partial<SkillAgentOptions> = {};
  for (const key of keep) if (options[key] !== undefined) Object.assign(child, { [key]: options[key] });
  return child;
}

function modelFor(
  id: string,
  options: SkillAgentOptions,
  delegation: DelegationOptions,
): { model: LanguageModel; modelConfig?: ModelConfig; label: string } {
  if (id === "inherit") {
    const label =
      options.modelConfig === undefined
        ? describeLanguageModel(options.model)
        : describeModel(options.modelConfig);
    return {
      model: options.model,
      ...(options.modelConfig === undefined ? {} : { modelConfig: options.modelConfig }),
      label,
    };
  }
  const given = typeof delegation.models === "function" ? delegation.models(id) : delegation.models?.[id];
  if (given !== undefined) return { model: given, label: describeLanguageModel(given) };
  if (options.modelConfig !== undefined) {
    const modelConfig: ModelConfig = { ...options.modelConfig, modelId: id };
    return { model: resolveModel(modelConfig), modelConfig, label: describeModel(modelConfig) };
  }
  return { model: id, label: id };
}

function describeLanguageModel(model: LanguageModel): string {
  return typeof model === "string" ? model : `${model.provider}:${model.modelId}`;
}

/**
 * Files the child's runs wrote to its `out/`, copied into the parent's workspace under
 * `out/agents/<agent>-<n>/` (before the child's workspace is deleted); paths relative to the parent's
 * workspace, or to the child's `out/` when the parent has none.
 */
async function collectFiles(
  child: SkillAgent,
  agent: string,
  n: number,
  parentWorkspace: Workspace | undefined,
): Promise<string[]> {
  const outDir = child.workspace?.outDir;
  if (outDir === undefined) return [];
  const found = await readdir(outDir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = found
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(outDir, path.join(entry.parentPath, entry.name)))
    .sort();
  if (files.length === 0 || parentWorkspace === undefined) return files;
  const target = path.join(parentWorkspace.outDir, "agents", `${agent}-${n}`);
  await cp(outDir, target, { recursive: true, dereference: false });
  return files.map((file) =>
    path.relative(parentWorkspace.root, path.join(target, file)).split(path.sep).join("/"),
  );
}

function safeId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}
