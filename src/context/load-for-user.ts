/**
 * A load asked by the user (`/skill NAME args`, `$name`) or the selection pre-pass, with the messages that
 * put it in the history: in `history` placement, a synthetic call of the profile's load tool (its name and
 * input shape, e.g. `Skill { skill }` under `claude`) and its result, so unloading it later stubs it like
 * any model load.
 */
import { randomUUID } from "node:crypto";
import type { ModelMessage } from "ai";
import type { SkillSession } from "./skill-session.js";

/** Result of {@link loadForUser}. */
export type UserLoadOutcome =
  | {
      ok: true;
      name: string;
      /**
       * Messages to append to the history (history placement): the profile's load call and its result;
       * empty with system placement or when the skill was already loaded. Appended before the first user
       * message, they are sent right after it (see `userFirstHistory`).
       */
      messages: ModelMessage[];
      tokens: number;
      /**
       * The agent the skill ran in, when it runs in its own context (`context: fork`): nothing was
       * loaded; `messages` hold the load call and the child's answer, `tokens` count the answer.
       */
      agent?: string;
    }
  | { ok: false; name: string; message: string };

/**
 * Loads `name` for the user (`by: "user"`: refused for `user-invocable: false` skills) or the selection
 * pre-pass (`by: "select"`: only skills visible to the model), with `args` for `$ARGUMENTS`.
 */
export async function loadForUser(
  session: SkillSession,
  name: string,
  options: { args?: string; by?: "user" | "select" } = {},
): Promise<UserLoadOutcome> {
  const by = options.by ?? "user";
  const toolCallId = `${by}-load-${randomUUID()}`;
  const result = await session.load(name, {
    by,
    toolCallId,
    ...(options.args === undefined ? {} : { args: options.args }),
  });
  if (!result.ok) return { ok: false, name, message: result.message };
  const messages: ModelMessage[] = [];
  if (session.placement === "history" && !result.alreadyLoaded) {
    const { toolName, input } = session.history.loadCall(result.name, options.args);
    const value = `${result.content}${result.docsContent}${result.notice === "" ? "" : `\n\n${result.notice}`}`;
    messages.push(
      { role: "assistant", content: [{ type: "tool-call", toolCallId, toolName, input }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId, toolName, output: { type: "text", value } }],
      },
    );
  }
  return { ok: true, name: result.name, messages, tokens: result.tokens };
}
