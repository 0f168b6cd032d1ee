/**
 * Failures that are not skillrt's bugs, in words a person can act on: an invalid config file (exit 2,
 * naming the file, the key and the problem), an unusable trust file, and a write the system refused (a full
 * disk, a read-only or unwritable folder: exit 1, naming the path and the fix). Anything else is a bug and
 * `main` reports it as one (exit 70).
 */
import { SkillrtError } from "../errors/skillrt-error.js";

/** A failure {@link knownFailure} recognised: the line to print (after `skillrt <command>: `) and the exit code. */
export interface KnownFailure {
  message: string;
  exitCode: number;
}

/** Why the system refused a file operation, and what to do, per errno code. */
const SYSTEM_REFUSALS: Record<string, { what: string; fix: string }> = {
  ENOSPC: { what: "no space left on the device", fix: "free some space on that disk" },
  EDQUOT: { what: "the disk quota is exceeded", fix: "free some space or raise the quota" },
  EROFS: { what: "the file system is read-only", fix: "use a writable location" },
  EACCES: { what: "permission denied", fix: "make the folder writable for this user" },
  EPERM: { what: "operation not permitted", fix: "check the file's owner and permissions" },
  EIO: { what: "an I/O error", fix: "check the disk" },
  EMFILE: { what: "too many open files", fix: "raise the open-file limit (ulimit -n)" },
  ENFILE: { what: "too many open files in the system", fix: "close other programs or raise the limit" },
};

/** What `error` means for the person running `command`, or undefined when it is unexpected (a bug). */
export function knownFailure(error: unknown): KnownFailure | undefined {
  if (SkillrtError.isInstance(error)) {
    if (error.code === "config-invalid" || error.code === "invalid-argument")
      return { message: oneLine(error.message), exitCode: 2 };
    if (error.code === "trust-file-invalid" || error.code === "store-error")
      return { message: oneLine(error.message), exitCode: 1 };
    // A SkillrtError wrapping a refused write (a cache or trust file) is that refusal.
    return error.cause === undefined ? undefined : knownFailure(error.cause);
  }
  const errno = error as { code?: unknown; path?: unknown; syscall?: unknown } | null;
  if (typeof errno?.code !== "string") return undefined;
  const refusal = SYSTEM_REFUSALS[errno.code];
  if (refusal === undefined) return undefined;
  const where = typeof errno.path === "string" ? errno.path : undefined;
  const syscall = typeof errno.syscall === "string" ? errno.syscall : "";
  const verb = READS.has(syscall) ? "read" : syscall === "open" ? "open" : "write";
  const fix = `${capital(refusal.fix)}, then run the command again.`;
  return {
    message:
      where === undefined
        ? `a file operation (${syscall || "unknown"}) failed: ${refusal.what} (${errno.code}). ${fix}`
        : `cannot ${verb} ${where}: ${refusal.what} (${errno.code}). ${fix}`,
    exitCode: 1,
  };
}

/** System calls that only read: their refusal is "cannot read", every other one "cannot write". */
const READS = new Set(["read", "scandir", "stat", "lstat", "fstat", "readlink", "access", "opendir"]);

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `text` on one line: a multi-line message's lines joined, so a script reading stderr gets one line. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
