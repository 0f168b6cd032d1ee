/**
 * A turn the session store would not take (still failing after its retries) kept on disk, so nothing the
 * user saw is lost: the answer's text, the question, and the whole conversation as it would have been saved,
 * in `<state dir>/unsaved/<session>-<time>.json` (0600, in a private folder checked like every state folder).
 * `skillrt ask --restore FILE` saves it into the store once the store is back.
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defaultStateDir } from "../catalog/trust-file.js";
import { CONVERSATION_NAMESPACE } from "../engine/create-skill-agent.js";
import { SavedConversation } from "../engine/saved-conversation.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { UnsavedTurnError } from "../errors/unsaved-turn-error.js";
import type { SessionStore } from "../store/session-store.js";
import { writeCacheFile } from "../util/trusted-cache.js";
import { cliHome } from "./cli-home.js";

/** Version of the kept file's shape. */
export const UNSAVED_TURN_VERSION = 1;

/** What a kept turn's file holds. */
export const UnsavedTurnFile = z.object({
  unsavedTurn: z.literal(UNSAVED_TURN_VERSION),
  sessionId: z.string().min(1),
  /** The store version the save expected: a restore over a conversation saved since is refused. */
  expectedVersion: z.number().int().min(0),
  savedAt: z.string(),
  question: z.string(),
  answer: z.string(),
  /** The saved form of the conversation. */
  conversation: SavedConversation,
});
/** What a kept turn's file holds. */
export type UnsavedTurnFile = z.infer<typeof UnsavedTurnFile>;

/**
 * Writes `error`'s conversation with the turn's `question` and streamed `answer` under the state directory.
 * Returns the file, or why it could not be written (the caller then prints the answer instead).
 */
export function keepUnsavedTurn(
  error: UnsavedTurnError,
  turn: { question: string; answer: string },
  env: Record<string, string | undefined>,
  now = new Date(),
): { file: string } | { problem: string } {
  const { home } = cliHome(env);
  const stateDir = home === undefined ? defaultStateDir(env) : defaultStateDir(env, home);
  if (stateDir === undefined) return { problem: "no state directory (set SKILLRT_STATE_DIR)" };
  const dir = path.join(stateDir, "unsaved");
  const safeId = error.sessionId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100);
  const name = `${safeId}-${now.toISOString().replace(/[:.]/g, "-")}.json`;
  const content = {
    unsavedTurn: UNSAVED_TURN_VERSION,
    sessionId: error.sessionId,
    expectedVersion: error.expectedVersion,
    savedAt: now.toISOString(),
    question: turn.question,
    answer: turn.answer,
    conversation: error.conversation,
  };
  try {
    writeCacheFile(dir, name, [`${JSON.stringify(content, null, 2)}\n`]);
  } catch (cause) {
    return { problem: `${path.join(dir, name)}: ${(cause as Error).message}` };
  }
  return { file: path.join(dir, name) };
}

/** Reads a kept turn's file (`--restore FILE`). Throws `SkillrtError` (`invalid-argument`) naming what is wrong. */
export async function readUnsavedTurn(file: string): Promise<UnsavedTurnFile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `--restore ${file}: cannot read it as JSON (${(error as Error).message})`,
    });
  }
  const parsed = UnsavedTurnFile.safeParse(json);
  if (!parsed.success)
    throw new SkillrtError({
      code: "invalid-argument",
      message: `--restore ${file}: not a turn kept by skillrt ask (${parsed.error.issues[0]?.path.join(".") ?? ""}: ${parsed.error.issues[0]?.message ?? ""})`,
    });
  return parsed.data;
}

/**
 * Saves a kept turn into `store` as its session's conversation, refused (a `StoreConflictError`) when the
 * session was saved since the turn was kept; the file is removed once saved.
 */
export async function restoreUnsavedTurn(
  store: SessionStore,
  file: string,
  kept: UnsavedTurnFile,
): Promise<void> {
  await store.put(kept.sessionId, kept.conversation, {
    namespace: CONVERSATION_NAMESPACE,
    expectedVersion: kept.expectedVersion,
  });
  await rm(file, { force: true });
}
