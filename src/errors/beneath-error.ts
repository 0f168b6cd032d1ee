import { SkillrtError } from "./skillrt-error.js";

/** Why a path could not be resolved under its root. */
export type BeneathReason = "outside" | "not-directory" | "missing" | "loop" | "invalid";

/**
 * Thrown by the workspace's path resolution (inputs, outputs, run folders) when a path cannot be resolved
 * safely under its root: it leaves the root (also through a symlink), loops, names something missing, or
 * passes through a file. `message` names only root-relative paths. Code `path-outside-root` for `outside`,
 * else `exec-error`.
 */
export class BeneathError extends SkillrtError {
  readonly reason: BeneathReason;

  constructor(reason: BeneathReason, message: string) {
    super({ code: reason === "outside" ? "path-outside-root" : "exec-error", message });
    this.name = "BeneathError";
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is BeneathError {
    return SkillrtError.isInstance(error) && error.name === "BeneathError";
  }
}
