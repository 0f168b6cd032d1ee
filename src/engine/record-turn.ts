/**
 * The turn path's one hook for `skillrt inspect`: wrap the turn's event listener, then, once the turn
 * has been saved, append its record to the conversation's turn log (see `turn-record.ts`). Recording
 * never changes a turn's outcome: a record that cannot be written is dropped (the conversation itself
 * is saved by the turn).
 */
import type { ModelMessage } from "ai";
import type { SkillSession } from "../context/skill-session.js";
import type { SessionStore } from "../store/session-store.js";
import type { EngineEventListener } from "./engine-event.js";
import { appendTurnRecord, createTurnRecorder } from "./turn-record.js";

/** Names of environment variables whose values are treated as secrets in recorded tool input and output. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;

/** Options of {@link recordTurn}. */
export interface RecordTurnOptions {
  /** Where the conversation is saved; undefined: nothing is recorded. */
  store: SessionStore | undefined;
  /** The conversation as it is when the turn ends. */
  conversation: () => { id: string; history: readonly ModelMessage[]; session: SkillSession };
  /** The user's message. */
  text: string;
  /** Environment whose secret-looking values are redacted from the record. */
  env?: Record<string, string | undefined>;
}

/** A turn being recorded. */
export interface TurnRecording {
  listen(listener: EngineEventListener): EngineEventListener;
  /** Awaits the turn, then records it (also when it failed) with the host `instructions`; settles as the turn does. */
  around<T>(turn: Promise<T>, instructions?: string): Promise<T>;
}

/** Starts recording one turn. */
export function recordTurn(options: RecordTurnOptions): TurnRecording {
  const secrets = Object.entries(options.env ?? {})
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= 8)
    .map(([, value]) => value as string);
  const recorder = createTurnRecorder({ userText: options.text, secrets });
  const save = async (instructions: string | undefined, error?: unknown): Promise<void> => {
    if (options.store === undefined) return;
    try {
      const { id, history, session } = options.conversation();
      const pending = recorder.finish({
        session,
        messages: history,
        ...(instructions === undefined ? {} : { system: instructions }),
        ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
      });
      await appendTurnRecord(options.store, id, pending);
    } catch {
      // The inspector's record is a by-product of the turn; losing one must not fail the turn.
    }
  };
  return {
    listen: (listener) => recorder.listen(listener),
    async around(turn, instructions) {
      let result: Awaited<typeof turn>;
      try {
        result = await turn;
      } catch (error) {
        await save(instructions, error);
        throw error;
      }
      await save(instructions);
      return result;
    },
  };
}
