/** Machine-readable codes of errors thrown by skillrt (expected failures are returned as values instead). */
export type SkillrtErrorCode =
  | "skill-not-found"
  | "path-outside-root"
  | "invalid-argument"
  | "store-error"
  | "provider-error"
  | "provider-timeout"
  | "turn-limit"
  | "exec-error"
  | "config-invalid"
  | "trust-file-invalid"
  | "sqlite-unavailable"
  | "file-too-large"
  | "workspace-unusable"
  | "agent-busy"
  | "delegation-limit"
  | "skill-verification-failed"
  | "root-digest-failed"
  | "skill-changed";

const marker = Symbol.for("skillrt.error");

/** Base class of every error skillrt throws. */
export class SkillrtError extends Error {
  readonly [marker] = true;
  readonly code: SkillrtErrorCode;

  constructor({ code, message, cause }: { code: SkillrtErrorCode; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "SkillrtError";
    this.code = code;
  }

  static isInstance(error: unknown): error is SkillrtError {
    return typeof error === "object" && error !== null && marker in error;
  }
}
