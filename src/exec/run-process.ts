/**
 * Spawns one argv as the leader of a new process group, feeds stdin, captures bounded output, and
 * kills the whole group on timeout, abort, or once the main process has exited (no stray children).
 */
import { childProcess } from "../util/child-process.js";
import { monotonicMs } from "../util/monotonic-ms.js";
import { DEFAULT_MAX_OUTPUT_BYTES, type ExecRequest, type ExecResult } from "./executor.js";
import { exitCodeOf } from "./exit-code-of.js";
import { createOutputCapture } from "./output-capture.js";
import { ownerWatchedArgv } from "./owner-watch.js";
import { killProcessGroup } from "./process-tree.js";

/** Grace between SIGTERM and SIGKILL of a timed-out group. Default 250 ms. */
export const KILL_GRACE_MS = 250;

/**
 * Options of `runProcess`: the process to start, plus the fields of an {@link ExecRequest} that apply to
 * any process as they are (stdin, timeout, abort signal, output cap, redactor).
 */
export interface RunProcessOptions
  extends Pick<
    ExecRequest,
    "stdin" | "timeoutMs" | "abortSignal" | "maxOutputBytes" | "redactor" | "interactive" | "onOutput"
  > {
  argv: string[];
  cwd: string;
  /** The whole environment of the process (nothing is added). */
  env: Record<string, string>;
  /** Default `KILL_GRACE_MS`. */
  killGraceMs?: number;
  /** Extra clean-up on timeout/abort (e.g. `docker kill`), run alongside the group kill. */
  onKill?: () => void;
  /**
   * Kill the whole group when this process dies, even by SIGKILL (`owner-watch.ts`): for launchers that
   * have no parent-death tie of their own (bubblewrap has `--die-with-parent`). Default false.
   */
  dieWithOwner?: boolean;
  /** With `dieWithOwner`: a command run (and waited for) when this process dies, before the group is killed. */
  onOwnerDeath?: string[];
}

/** Raw outcome of `runProcess`: an {@link ExecResult} before the executor adds `executor` and `warnings`. */
export interface RunProcessResult extends Omit<ExecResult, "executor" | "warnings"> {
  /** Set when the process could not be started. */
  spawnError?: string;
}

/** Runs `argv` and resolves when it has exited and its output is collected. Never rejects. */
export function runProcess(options: RunProcessOptions): Promise<RunProcessResult> {
  const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const slack = Math.max(4096, (options.redactor?.maxFormLength ?? 0) * 4);
  const out = createOutputCapture(cap, slack);
  const err = createOutputCapture(cap, slack);
  const started = monotonicMs();
  const [file, ...args] =
    options.dieWithOwner === true ? ownerWatchedArgv(options.argv, options.onOwnerDeath) : options.argv;
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let spawnError: string | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const child = childProcess().spawn(file ?? "", args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: options.dieWithOwner === true ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
    });
    // The owner pipe: never written; it closes when the group's watcher goes (or this process dies).
    const ownerPipe =
      options.dieWithOwner === true
        ? (child.stdio[3] as NodeJS.ReadableStream & { destroy(): void })
        : undefined;
    ownerPipe?.on("error", () => {});
    ownerPipe?.resume();
    const pid = child.pid;
    const killTree = (): void => {
      if (pid === undefined || killTimer !== undefined) return;
      options.onKill?.();
      killProcessGroup(pid, "SIGTERM");
      killTimer = setTimeout(() => killProcessGroup(pid, "SIGKILL"), options.killGraceMs ?? KILL_GRACE_MS);
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        killTree();
      },
      Math.max(1, options.timeoutMs),
    );
    const onAbort = (): void => {
      aborted = true;
      killTree();
    };
    if (options.abortSignal?.aborted) onAbort();
    else options.abortSignal?.addEventListener("abort", onAbort, { once: true });

    const interactive = options.interactive;
    const onOutput = options.onOutput;
    child.stdout.on("data", (chunk: Buffer) => {
      out.push(chunk);
      interactive?.onOutput(chunk);
      onOutput?.(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err.push(chunk);
      interactive?.onOutput(chunk);
      onOutput?.(chunk);
    });
    child.stdin.on("error", () => {}); // EPIPE when the command ignores stdin
    if (interactive === undefined) child.stdin.end(options.stdin ?? "");
    else interactive.stdin.pipe(child.stdin);
    child.on("error", (error) => {
      spawnError = error.message;
      if (pid === undefined) finish(null, null);
    });
    child.on("exit", () => {
      // The run is over once its main process is: take down anything it left behind in the group.
      if (pid !== undefined) killProcessGroup(pid, "SIGKILL");
      // A descendant that left the group (setsid) may still hold the pipes: stop waiting for it.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        ownerPipe?.destroy();
      }, 1000).unref();
    });
    child.on("close", (code, signal) => finish(code, signal));
    function finish(code: number | null, signal: NodeJS.Signals | null): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      options.abortSignal?.removeEventListener("abort", onAbort);
      const o = out.finish(options.redactor);
      const e = err.finish(options.redactor);
      const exitCode = spawnError !== undefined ? -1 : exitCodeOf(code, signal);
      resolve({
        exitCode,
        stdout: o.text,
        stderr:
          spawnError === undefined ? e.text : `${e.text}${e.text ? "\n" : ""}could not start: ${spawnError}`,
        timedOut,
        aborted,
        durationMs: Math.round((monotonicMs() - started) * 100) / 100,
        truncated: { stdout: o.truncated, stderr: e.truncated },
        bytes: { stdout: o.bytes, stderr: e.bytes },
        ...(signal === null ? {} : { signal }),
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    }
  });
}
