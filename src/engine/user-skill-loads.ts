/**
 * What the user does to an agent's context between turns — `loadSkill` (`/skill NAME args`, a fork skill
 * run now) and `unloadSkill` (`/unload`) — and the session events it caused, which the next turn's
 * `turn-start` reports (the caller has shown them already).
 */
import { randomUUID } from "node:crypto";
import type { ModelMessage } from "ai";
import type { Catalog } from "../catalog/types.js";
import { skillListing } from "../context/list-skills.js";
import { loadForUser, type UserLoadOutcome } from "../context/load-for-user.js";
import type { SkillSession } from "../context/skill-session.js";
import type { Delegator } from "./delegate-to-agent.js";
import { answerText } from "./delegation-tool.js";
import type { EngineEvent } from "./engine-event.js";
import { isForkSkill, runForkSkill } from "./fork-skill.js";
import type { SkillAgent } from "./skill-agent.js";
import { onSessionEvents } from "./skill-step.js";

/** What the user loads act on: the current conversation (replaced by `reset()`) and the agent's parts. */
export interface UserLoadParts {
  conversation: () => { history: ModelMessage[]; session: SkillSession };
  catalog: Catalog;
  delegator: Delegator;
  save: () => Promise<void>;
}

/** The agent's `loadSkill` and `unloadSkill`, and the events they caused since the last turn. */
export interface UserSkillLoads extends Pick<SkillAgent, "loadSkill" | "unloadSkill"> {
  /** The events since the last call (or `clear`), each at step 0; the list is emptied. */
  takeBetween(): EngineEvent[];
  /** Forgets the events not yet taken (a new conversation). */
  clear(): void;
  /** Adds an event caused between turns (a user-started fork skill's `agent-start`, `agent-end`). */
  noteBetween(event: EngineEvent): void;
}

export function userSkillLoads(parts: UserLoadParts): UserSkillLoads {
  const between: EngineEvent[] = [];
  const noteBetween = async <T>(action: () => Promise<T>): Promise<T> => {
    const off = onSessionEvents(parts.conversation().session, (event) => {
      between.push({ ...event, step: 0 });
    });
    try {
      return await action();
    } finally {
      off();
    }
  };

  /** `/skill NAME args` of a fork skill: the child runs now; the history gets the load call and its answer. */
  const forkForUser = async (
    name: string,
    args: string | undefined,
    onEvent: ((event: EngineEvent) => void) | undefined,
  ): Promise<UserLoadOutcome> => {
    const conversation = parts.conversation();
    const { session } = conversation;
    const toolCallId = `user-fork-${randomUUID()}`;
    try {
      const result = await runForkSkill(
        { delegator: parts.delegator, catalog: parts.catalog, session },
        name,
        args,
        toolCallId,
        // A person's `/skill NAME args`: the arguments are their request (not the previous turn's message).
        { request: args ?? "", ...(onEvent === undefined ? {} : { onEvent }) },
      );
      const { toolName, input } = session.history.loadCall(name, args);
      const value = answerText(result);
      const messages: ModelMessage[] = [
        { role: "assistant", content: [{ type: "tool-call", toolCallId, toolName, input }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId, toolName, output: { type: "text", value } }],
        },
      ];
      conversation.history.push(...messages);
      await parts.save();
      return { ok: true, name, messages, tokens: session.counter.count(value), agent: result.agent };
    } catch (error) {
      return { ok: false, name, message: error instanceof Error ? error.message : String(error) };
    }
  };

  return {
    async loadSkill(name, loadOptions = {}) {
      const { session, history } = parts.conversation();
      const listing = skillListing(session, name);
      if (listing !== undefined && !listing.userInvocable) {
        return {
          ok: false,
          name,
          message:
            `Skill '${name}' cannot be loaded by the user: it sets 'user-invocable: false'. ` +
            "The model can still load it when a task needs it.",
        };
      }
      const record = listing === undefined ? undefined : parts.catalog.get(name);
      if (record !== undefined && isForkSkill(record, session.profile.name)) {
        return forkForUser(name, loadOptions.args, loadOptions.onEvent);
      }
      const outcome = await noteBetween(() =>
        loadForUser(session, name, {
          by: "user",
          ...(loadOptions.args === undefined || loadOptions.args === "" ? {} : { args: loadOptions.args }),
        }),
      );
      if (outcome.ok) {
        history.push(...outcome.messages);
        await parts.save();
      }
      return outcome;
    },
    async unloadSkill(name) {
      const { session } = parts.conversation();
      const result = await noteBetween(async () => session.unload(name, { by: "user" }));
      if (!result.ok) return { ok: false, message: result.message };
      await parts.save();
      return { ok: true, message: `Unloaded ${name}. Loaded now: ${result.loaded.join(", ") || "none"}.` };
    },
    takeBetween: () => between.splice(0),
    noteBetween(event) {
      between.push({ ...event, step: 0 });
    },
    clear() {
      between.length = 0;
    },
  };
}
