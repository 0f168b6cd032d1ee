import { SkillrtError } from "./skillrt-error.js";

/**
 * Thrown by a `SkillAgent` turn whose save still failed after retrying for its whole window (the session
 * store unreachable, a SQLite file unwritable or locked). The turn itself ran, and its answer was streamed:
 * {@link UnsavedTurnError.conversation} is exactly what would have been saved, for the caller to keep (the
 * CLI writes it to a file and says how to save it later) so nothing the user saw is lost.
 */
export class UnsavedTurnError extends SkillrtError {
  /** The conversation's id in the store. */
  readonly sessionId: string;
  /** The saved form the store refused (a `SavedConversation`, JSON-safe). */
  readonly conversation: unknown;
  /** The store version the save expected (0: the conversation was never saved). */
  readonly expectedVersion: number;
  /** How long the save was retried, in ms. */
  readonly retriedMs: number;

  constructor(options: {
    sessionId: string;
    conversation: unknown;
    expectedVersion: number;
    retriedMs: number;
    cause: unknown;
  }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super({
      code: "store-error",
      message:
        `the turn could not be saved to session '${options.sessionId}' (retried for ` +
        `${Math.round(options.retriedMs / 1000)} s): ${reason}`,
      cause: options.cause,
    });
    this.name = "UnsavedTurnError";
    this.sessionId = options.sessionId;
    this.conversation = options.conversation;
    this.expectedVersion = options.expectedVersion;
    this.retriedMs = options.retriedMs;
  }

  /** True for an {@link UnsavedTurnError}, also across copies of the package. */
  static override isInstance(error: unknown): error is UnsavedTurnError {
    return SkillrtError.isInstance(error) && error.name === "UnsavedTurnError";
  }
}
