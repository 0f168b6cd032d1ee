/** The error a model request fails with when the provider stays silent past a deadline. */
import { SkillrtError } from "../errors/skillrt-error.js";

/** Which deadline passed: before the first byte of the answer, or between two chunks of it. */
export type ModelDeadline = "first-byte" | "idle";

/** `12 s`, `1.5 s`: a deadline in seconds as people read it. */
export function formatDeadline(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Thrown (inside the provider's fetch) when the provider sent nothing for `timeoutMs`: before the first
 * byte of its answer (`first-byte`) or between two chunks of a streamed answer (`idle`). Not retried; the
 * engine turns it into a `ProviderError`.
 */
export class ModelTimeoutError extends SkillrtError {
  readonly deadline: ModelDeadline;
  readonly timeoutMs: number;

  constructor({ deadline, timeoutMs }: { deadline: ModelDeadline; timeoutMs: number }) {
    super({
      code: "provider-timeout",
      message:
        deadline === "first-byte"
          ? `sent nothing for ${formatDeadline(timeoutMs)} (the first-byte deadline)`
          : `stopped sending for ${formatDeadline(timeoutMs)} in the middle of its answer (the idle deadline)`,
    });
    this.name = "ModelTimeoutError";
    this.deadline = deadline;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is ModelTimeoutError {
    return SkillrtError.isInstance(error) && error.code === "provider-timeout";
  }
}
