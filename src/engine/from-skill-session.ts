/** Adapts a `SkillSession` and its skill tools to the engine's {@link EngineSkillContext}. */
import { randomUUID } from "node:crypto";
import type { ModelMessage, ToolSet } from "ai";
import type { SkillSession } from "../context/skill-session.js";
import type { EngineSkillContext, SkillContextEvent, SkillListing } from "./engine-skill-context.js";
import { userFirstHistory } from "./user-first-history.js";

/** What the engine takes from the tool layer (`createSkillTools`' result has this shape). */
export interface SkillToolsView {
  /** Every skill tool (AI SDK tools). */
  tools: ToolSet;
  /** Tools the model may call next step (gating). Default: all. */
  activeToolNames?: () => string[];
  /** System prompt for the next step. Default: the session's `renderSystemPrompt()`. */
  systemPrompt?: () => string;
  /** Called before each step (e.g. to find script tools of skills loaded outside the tools). */
  prepare?: () => Promise<void>;
}

/** Options of {@link fromSkillSession}. */
export interface FromSkillSessionOptions {
  /** Re-scans the catalog behind `/reload`. Default `session.catalog.refresh()`. */
  reload?: () => Promise<void>;
}

/**
 * The engine view of `session`: tools, gating and system prompt from `skillTools`; history rewriting,
 * re-materialisation, ledger, snapshot and events from the session.
 *
 * - Before every step it calls `session.init()` (idempotent; a no-op for restored sessions), so `active`
 *   skills load without the host doing anything.
 * - History placement: the loads `init()` made reach the model as the profile's load call and its result,
 *   inserted after the first user message each step by `rewriteHistory` (never stored in the host's
 *   history, byte-identical from step to step, a stub once unloaded, dropped after compaction, which
 *   re-materialises them). Hosts that call `runAgent` need to do nothing; hosts with their own loop put
 *   `session.openingMessages()` after the first user message themselves.
 * - A user load (history placement) becomes a synthetic call of the profile's load tool (its name and
 *   input shape, e.g. `Skill { skill }` under `claude`) and its result, appended to the history, so
 *   unloading it later stubs it like any model load. Loads appended before the first user message (a
 *   `/skill NAME` before anything was said) are sent right after it (and after the opening messages), so
 *   the conversation always starts with the user (see {@link userFirstHistory}).
 * - A user load of a skill with `user-invocable: false` fails (`session.load` refuses it); the selection
 *   pre-pass loads as the model does, so it never loads a skill hidden from the model.
 */
export function fromSkillSession(
  session: SkillSession,
  skillTools: SkillToolsView,
  options: FromSkillSessionOptions = {},
): EngineSkillContext {
  let loadingBy: "user" | "select" | undefined;
  return {
    tools: () => skillTools.tools,
    activeToolNames: () => skillTools.activeToolNames?.() ?? Object.keys(skillTools.tools),
    systemPrompt: () => skillTools.systemPrompt?.() ?? session.renderSystemPrompt(),
    rewriteHistory: (messages) =>
      userFirstHistory(session.rewriteHistory(messages), session.openingMessages()),
    prepare: async () => {
      await session.init();
      await skillTools.prepare?.();
    },
    rematerialize: () => {
      const text = session.rematerialize();
      return text === "" ? [] : [{ role: "user", content: text }];
    },
    async loadSkill(name, loadOptions = {}) {
      const by = loadOptions.by ?? "user";
      const toolCallId = `${by}-load-${randomUUID()}`;
      loadingBy = by;
      let result: Awaited<ReturnType<SkillSession["load"]>>;
      try {
        result = await session.load(name, {
          // The pre-pass acts for the model: it must not load skills hidden from the model.
          by: by === "select" ? "model" : "user",
          toolCallId,
          ...(loadOptions.args === undefined ? {} : { args: loadOptions.args }),
        });
      } finally {
        loadingBy = undefined;
      }
      if (!result.ok) return { ok: false, name, message: result.message };
      const messages: ModelMessage[] = [];
      if (session.placement === "history" && !result.alreadyLoaded) {
        const { toolName, input } = session.loadCall(result.name, loadOptions.args);
        messages.push(
          { role: "assistant", content: [{ type: "tool-call", toolCallId, toolName, input }] },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId,
                toolName,
                output: {
                  type: "text",
                  value: `${result.content}${result.docsContent}${result.notice === "" ? "" : `\n\n${result.notice}`}`,
                },
              },
            ],
          },
        );
      }
      return { ok: true, name: result.name, messages, tokens: result.tokens };
    },
    async unloadSkill(name) {
      const result = session.unload(name);
      return result.ok
        ? { ok: true, message: `Unloaded ${name}. Loaded now: ${result.loaded.join(", ") || "none"}.` }
        : { ok: false, message: result.message };
    },
    listSkills(): SkillListing[] {
      const byName = new Map<string, SkillListing>();
      const invocable = new Set(session.userInvocableSkills().map((r) => r.name));
      for (const record of [...session.visibleSkills(), ...session.userInvocableSkills()]) {
        if (byName.has(record.name)) continue;
        const loaded = session.loadedSkill(record.name);
        byName.set(record.name, {
          name: record.name,
          description: record.description,
          loaded: loaded !== undefined,
          tokens: loaded?.tokens ?? session.counter.count(`- ${record.name}: ${record.description}`),
          userInvocable: invocable.has(record.name),
        });
      }
      return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    loadedSkills: () => session.loadedSkills(),
    ledger: () => {
      const ledger = session.ledger();
      return {
        counter: ledger.counter,
        entries: ledger.entries,
        total: ledger.total,
        contextWindow: ledger.contextWindow,
        contextWindowKnown: ledger.contextWindowKnown,
      };
    },
    measureHistory: (messages) => session.measureHistory(messages),
    snapshot: () => session.snapshot(),
    search: (query, limit) => session.search(query, limit).map((h) => ({ name: h.name, score: h.score })),
    async reload() {
      await (options.reload?.() ?? session.catalog.refresh());
      session.refreshCatalog();
    },
    subscribe(listener) {
      const modelOr = (): "model" | "user" | "select" => loadingBy ?? "model";
      const offs = [
        session.on("skill-load", (e) => {
          const by = e.by === "model" ? modelOr() : "user";
          listener({ type: "skill-load", name: e.name, tokens: e.tokens, by });
        }),
        session.on("skill-unload", (e) => {
          if (e.reason === "evict") return; // reported by budget-evict
          const event: SkillContextEvent = {
            type: "skill-unload",
            name: e.name,
            by: loadingBy === undefined ? "model" : "user",
          };
          listener(event);
        }),
        session.on("budget-evict", (e) => {
          for (const name of e.evicted) {
            listener({
              type: "budget-evict",
              name,
              reason: `context at ${e.tokensBefore} tokens passed the threshold of ${e.threshold}; now ${e.tokensAfter}`,
            });
          }
        }),
      ];
      return () => {
        for (const off of offs) off();
      };
    },
  };
}
