/**
 * Turn recording for `skillrt inspect`, attached to an agent from outside through its events:
 * `recordTurns(agent, { store, env })` subscribes and, at each `turn-end`, appends the turn's record (see
 * `turn-record.ts`) to the conversation's turn log in `store` — the agent's own turns and its subagents'
 * (their events reach it wrapped in `agent-event`), each in its own conversation's log, failed turns too.
 * The turn settles after the write. Recording never changes a turn's outcome: a record that cannot be
 * written is dropped (the conversation itself is saved by the turn).
 */
import type { EngineEvent } from "../engine/engine-event.js";
import type { SkillAgent } from "../engine/skill-agent.js";
import type { SessionStore } from "../store/session-store.js";
import { appendTurnRecord, createTurnRecorder, type TurnRecorder } from "./turn-record.js";

/** Names of environment variables whose values are treated as secrets in recorded tool input and output. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;

/** Options of {@link recordTurns}. */
export interface RecordTurnsOptions {
  /** Where the turn logs go: the store the agent saves its conversations in. */
  store: SessionStore;
  /** Environment whose secret-looking values (`*_KEY`, `*_TOKEN`, …) are redacted from the records. */
  env?: Record<string, string | undefined>;
  /** Clock. Default `Date.now`. */
  now?: () => number;
}

/**
 * The listener that records turns (for `createSkillAgent({ onEvent })`); it returns the write for a
 * `turn-end`, which the agent awaits.
 */
export function turnRecorder(options: RecordTurnsOptions): (event: EngineEvent) => Promise<void> | undefined {
  const secrets = Object.entries(options.env ?? {})
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= 8)
    .map(([, value]) => value as string);
  /** The turns running, by the chain of subagents they run in ("" for the agent's own): each one's recorder. */
  const running = new Map<string, { recorder: TurnRecorder; note: (event: EngineEvent) => void }>();
  return (event) => {
    let chain = "";
    let inner = event;
    while (inner.type === "agent-event") {
      chain += `/${inner.agent}:${inner.parentCallId}`;
      inner = inner.event;
    }
    if (inner.type === "turn-start") {
      const recorder = createTurnRecorder({
        userText: inner.text,
        ...(inner.traceId === undefined ? {} : { traceId: inner.traceId }),
        secrets,
        ...(options.now === undefined ? {} : { now: options.now }),
      });
      const note = recorder.listen(() => {});
      for (const earlier of inner.between) note(earlier);
      running.set(chain, { recorder, note });
      return undefined;
    }
    const turn = running.get(chain);
    if (inner.type !== "turn-end") {
      turn?.note(inner);
      return undefined;
    }
    running.delete(chain);
    return turn === undefined ? undefined : save(options.store, turn.recorder, inner);
  };
}

/** Builds the ended turn's record now (the conversation as it ended), then appends it to the log. */
async function save(
  store: SessionStore,
  recorder: TurnRecorder,
  end: Extract<EngineEvent, { type: "turn-end" }>,
): Promise<void> {
  try {
    const { history, session, instructions } = end.conversation();
    const pending = recorder.finish({
      session,
      messages: history,
      system: instructions,
      ...(end.error === undefined ? {} : { error: end.error }),
    });
    await appendTurnRecord(store, end.sessionId, pending);
  } catch {
    // The inspector's record is a by-product of the turn; losing one must not fail the turn.
  }
}

/**
 * Records every turn of `agent` (and of its subagents) in `store`'s turn logs, which `skillrt inspect`
 * shows; returns the unsubscribe function. The Node preset (`fromEnvironment`) attaches it for you.
 */
export function recordTurns(agent: Pick<SkillAgent, "subscribe">, options: RecordTurnsOptions): () => void {
  return agent.subscribe(turnRecorder(options));
}
