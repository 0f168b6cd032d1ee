/**
 * What a loop needs from the skill layer before each step, from the session and its tools directly:
 * the live tool set, the instructions (host text + catalog, + loaded bodies in `system` placement), the
 * active tools, and the history as the model should see it. `runAgent` and `createSkillToolkit` use it.
 */
import type { ModelMessage, ToolSet } from "ai";
import { beginRequest } from "../context/load-mode.js";
import type { SessionEvent, SessionEventType } from "../context/session-event.js";
import type { SkillSession } from "../context/skill-session.js";
import type { ActiveTools } from "../tools/compute-active-tools.js";
import type { SkillTools } from "../tools/create-skill-tools.js";
import { addToolsOnce } from "./schema-once.js";

/** One step's view of the skill layer. */
export interface SkillStepView {
  instructions: string;
  activeTools: string[];
}

/** The skill layer as a loop drives it. */
export interface SkillStep {
  /**
   * Every skill tool and host tool (registry, MCP servers); grows when a loaded skill brings script tools or
   * a source adds tools (after {@link prepare}). Tools withdrawn later stay in it but leave the active tools.
   */
  readonly tools: ToolSet;
  /**
   * Call before every step: loads `active` skills on the first call (`session.init()`, idempotent), finds
   * the script tools of skills loaded outside the tools, and adds new tools to {@link tools}.
   */
  prepare(history?: ModelMessage[]): Promise<void>;
  /**
   * Instructions and active tools for the next step; `history` (the messages of the step) gives the latest
   * user message, which the `trpc` overview is ranked for.
   */
  render(history?: readonly ModelMessage[]): SkillStepView;
  /** Why gated host tools are offered (`granted`) or hidden (`reasons`) now. */
  gating(): ActiveTools;
  /**
   * The history as sent: unloaded skills' results become stubs, and in `history` placement the loads
   * `init()` made are shown after the first user message (never stored in the host's history,
   * byte-identical from step to step, dropped after compaction, which re-materialises them).
   */
  messages(history: ModelMessage[]): ModelMessage[];
}

function joinInstructions(parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => p !== undefined && p.trim() !== "").join("\n\n");
}

/** The step view of `session` under `skillTools`, with the host's `instructions` first. */
export function createSkillStep(
  session: SkillSession,
  skillTools: SkillTools,
  options: { instructions?: string } = {},
): SkillStep {
  // Each tool's input schema is converted to JSON Schema once, not at every step (see schemaOnce).
  const tools: ToolSet = {};
  addToolsOnce(tools, skillTools.allTools());
  // The instructions of the last render, kept while the skill prompt is the same string (steps in a row
  // then send one string object, not an equal copy).
  let joined: { prompt: string | undefined; text: string } = { prompt: undefined, text: "" };
  return {
    tools,
    async prepare(history?: ModelMessage[]) {
      await session.init();
      if (history !== undefined) skillTools.observeHistory(history.map(contentJson));
      await skillTools.prepare();
      addToolsOnce(tools, skillTools.allTools());
    },
    render: (history) => {
      if (history !== undefined) {
        // A request: `once` mode unloads what the previous one showed.
        beginRequest(session);
        session.renderer.setRequest(latestUserText(history));
      }
      const prompt = skillTools.systemPrompt();
      if (prompt !== joined.prompt)
        joined = { prompt, text: joinInstructions([options.instructions, prompt]) };
      return {
        instructions: joined.text,
        activeTools: skillTools.activeToolNames().filter((n) => n in tools),
      };
    },
    gating: () => skillTools.gating(),
    messages: (history) => session.history.sent(history),
  };
}

// A message's content as JSON, once per message: the history is re-read before every step, and its
// messages (the host's, and each step's response messages) are the same objects from step to step and
// turn to turn, never modified. Re-serialising all of them was the largest per-step cost of the skill
// layer in bench/step.mjs (~0.12 ms of a ~2.5 ms step after 25 turns).
const contentJsonOf = new WeakMap<ModelMessage, string>();

function contentJson(message: ModelMessage): string {
  let json = contentJsonOf.get(message);
  if (json === undefined) {
    json = JSON.stringify(message.content);
    contentJsonOf.set(message, json);
  }
  return json;
}

/** Text of the latest user message with text (trpc's `overviewQueryWeights` query). */
function latestUserText(history: readonly ModelMessage[]): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role !== "user") continue;
    const text =
      typeof message.content === "string"
        ? message.content
        : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    if (text.trim() !== "") return text;
  }
  return "";
}

const SESSION_EVENT_TYPES: readonly SessionEventType[] = [
  "skill-load",
  "skill-unload",
  "docs-select",
  "file-read",
  "budget-evict",
];

/** Subscribes to every event of `session`; returns the unsubscribe function. */
export function onSessionEvents(session: SkillSession, listener: (event: SessionEvent) => void): () => void {
  const offs = SESSION_EVENT_TYPES.map((type) => session.on(type, listener));
  return () => {
    for (const off of offs) off();
  };
}
