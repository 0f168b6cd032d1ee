import { SkillrtError } from "../errors/skillrt-error.js";

/**
 * Thrown by `SessionStore.lockSession` when another engine (another process, replica or agent) held the
 * session for longer than the caller was willing to wait. Nothing was written: retry later, or open another
 * session.
 */
export class SessionBusyError extends SkillrtError {
  readonly sessionId: string;
  readonly namespace: string;
  /** How long the caller waited, in ms. */
  readonly waitedMs: number;
  /** Who holds the session, when the store can tell (e.g. `pid 1234 on web-1`). */
  readonly holder: string | undefined;

  constructor(options: { id: string; namespace: string; waitedMs: number; holder?: string | undefined }) {
    const by = options.holder === undefined ? "another process" : options.holder;
    super({
      code: "store-error",
      message:
        `Session '${options.id}' (namespace '${options.namespace}') is in use by ${by}: it is in the middle ` +
        `of a turn and did not finish within ${Math.round(options.waitedMs / 1000)} s. Nothing was saved; ` +
        "try again when that turn is over, or use another session.",
    });
    this.name = "SessionBusyError";
    this.sessionId = options.id;
    this.namespace = options.namespace;
    this.waitedMs = options.waitedMs;
    this.holder = options.holder;
  }

  /** True for a {@link SessionBusyError}, also across copies of the package. */
  static override isInstance(error: unknown): error is SessionBusyError {
    return SkillrtError.isInstance(error) && error.name === "SessionBusyError";
  }
}
