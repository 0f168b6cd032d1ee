/**
 * The turn path's one hook for `skillrt inspect`: wrap the turn's event listener, then save the turn's
 * record next to the conversation. Recording never fails a turn: a record that cannot be written is
 * dropped (the conversation itself is saved by the caller).
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
  store: SessionStore;
  /** Conversation id (read when saving: a `/new` mid-turn does not happen, but the id is the caller's). */
  id: () => string;
  session: () => SkillSession;
  /** The user's message. */
  text: string;
  /** Environment whose secret-looking values are redacted from the record. */
  env?: Record<string, string | undefined>;
}

/** A turn being recorded. */
export interface TurnRecording {
  listen(listener: EngineEventListener): EngineEventListener;
  /** Measures the session and appends the turn to the conversation's turn log. Never throws. */
  save(messages: readonly ModelMessage[], system?: string, error?: unknown): Promise<void>;
}

/** Starts recording one turn of a conversation kept in `store`. */
export function recordTurn(options: RecordTurnOptions): TurnRecording {
  const secrets = Object.entries(options.env ?? {})
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= 8)
    .map(([, value]) => value as string);
  const recorder = createTurnRecorder({ userText: options.text, secrets });
  return {
    listen: (listener) => recorder.listen(listener),
    async save(messages, system, error) {
      try {
        const pending = recorder.finish({
          session: options.session(),
          messages,
          ...(system === undefined ? {} : { system }),
          ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
        });
        await appendTurnRecord(options.store, options.id(), pending);
      } catch {
        // The inspector's record is a by-product of the turn; losing one must not fail the turn.
      }
    },
  };
}
