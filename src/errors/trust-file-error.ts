import { SkillrtError } from "./skillrt-error.js";

/**
 * Thrown when the user's trust file exists but is not a trust file (not JSON, or not the schema): nothing
 * in it is trusted, and skillrt refuses to write over it (that would drop every record it held). The
 * message names the file, the problem and the fix (move it aside, trust again).
 */
export class TrustFileError extends SkillrtError {
  /** The trust file's path. */
  readonly file: string;
  /** What is wrong with it (`invalid JSON (…)`, `roots.0.digest: …`). */
  readonly problem: string;

  constructor({ file, problem }: { file: string; problem: string }) {
    super({ code: "trust-file-invalid", message: trustFileProblemText(file, problem) });
    this.name = "TrustFileError";
    this.file = file;
    this.problem = problem;
  }

  static override isInstance(error: unknown): error is TrustFileError {
    return SkillrtError.isInstance(error) && error.code === "trust-file-invalid";
  }
}

/** The one sentence said about a corrupt trust file, as an error or as a warning. */
export function trustFileProblemText(file: string, problem: string): string {
  return (
    `the trust file ${file} is corrupt (${problem}), so nothing in it is trusted. ` +
    `Move it aside (mv '${file}' '${file}.bad') and run skillrt trust again for each root you trust.`
  );
}
