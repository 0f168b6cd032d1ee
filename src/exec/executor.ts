/**
 * The `Executor` contract: run one command in a prepared directory, with a cleared environment,
 * resource limits, a wall-clock timeout that kills the whole process tree, and capped output.
 * Implementations: `sandbox` (bubblewrap), `local` (plain child process), `container` (docker/podman).
 */
import type { ExecLimits } from "./limits.js";
import type { Redactor } from "./redact.js";

/** Which implementation ran a command (`sandbox-session`: an AI SDK `Experimental_SandboxSession` of whatever provider). */
export type ExecutorKind = "sandbox" | "local" | "container" | "sandbox-session";

/** An extra host path made visible to the command (sandbox and container only; ignored by `local`). */
export interface ExecMount {
  /** Absolute host path. */
  source: string;
  /** Absolute path inside the sandbox. Default: the same as `source`. */
  target?: string;
  /** Default `true`. */
  readOnly?: boolean;
}

/** One command to run. */
export interface ExecRequest {
  /** An argv array (run directly), or a string run through `/bin/sh -c`. */
  command: string[] | string;
  /** Absolute working directory (must be inside something the executor mounts). */
  cwd: string;
  /**
   * The complete environment of the command. Nothing else from the host leaks in; executors only add
   * `PATH` (and `HOME`/`LANG`) when absent.
   */
  env: Record<string, string>;
  /** Written to the command's stdin, which is then closed. Default: empty stdin. */
  stdin?: string;
  /** Wall-clock limit. When it passes the process tree is killed and `timedOut` is set. */
  timeoutMs: number;
  /** Aborting kills the process tree like a timeout (the result has `aborted: true`). */
  abortSignal?: AbortSignal;
  /** Resource limits (rlimits). Default `DEFAULT_LIMITS`. */
  limits?: ExecLimits;
  /** Host paths to expose (workspace read-write, skill read-only, …). */
  mounts?: ExecMount[];
  /** Bytes of stdout and of stderr kept for the model. Default 16 KiB each. */
  maxOutputBytes?: number;
  /** Applied to stdout and stderr before they are capped, so secrets never survive a cut. */
  redactor?: Redactor;
  /**
   * An interactive run (`skill_exec`): stdin stays open and is fed from `stdin` (`stdin` above is not
   * used), and every chunk of stdout and stderr is also handed to `onOutput` as it arrives. Honoured by
   * the executors that launch a process here (`sandbox`, `local`, `container`).
   */
  interactive?: { stdin: NodeJS.ReadableStream; onOutput(chunk: Buffer): void };
  /**
   * Receives every chunk of stdout and stderr as it arrives, unredacted (for a progress display: the caller
   * redacts what it shows); the result still carries the redacted, capped output. Optional for executors:
   * one that cannot stream leaves it uncalled.
   */
  onOutput?(chunk: Buffer): void;
}

/** What a run produced. A failing command is a result, not an exception. */
export interface ExecResult {
  /** Exit status; `128 + n` when killed by signal n; -1 when the command could not start. */
  exitCode: number;
  /** Decoded, redacted, capped stdout (with a `…[truncated N bytes]` marker when cut). */
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** True when `abortSignal` fired. */
  aborted: boolean;
  /** Measured wall-clock duration. */
  durationMs: number;
  truncated: { stdout: boolean; stderr: boolean };
  /** Total bytes the command wrote to each stream (including what was dropped). */
  bytes: { stdout: number; stderr: number };
  /** Name of the signal that ended the main process, if any. */
  signal?: string;
  /** Which implementation ran it. */
  executor: ExecutorKind;
  /** Non-fatal notes (e.g. "bubblewrap unavailable, ran without a sandbox"). */
  warnings: string[];
}

/** Runs commands. Implementations are stateless apart from cached probes, so one can serve many sessions. */
export interface Executor {
  readonly kind: ExecutorKind;
  run(request: ExecRequest): Promise<ExecResult>;
}

/** Default bytes of stdout and of stderr returned to the model: 16 KiB each. */
export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024;

/** `PATH` executors give a command whose request sets none (and `runSkillCommand`'s default). */
export const DEFAULT_EXEC_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
