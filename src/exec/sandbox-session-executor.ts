/**
 * An `Executor` over any AI SDK `Experimental_SandboxSession` (hosted sandboxes, containers, skillrt's own
 * bubblewrap session): the run's mounts are staged into the sandbox with its file API, the command runs
 * with its `spawn` (cleared environment, rlimits, stdin, output cap, timeout and abort that kill it), and
 * what the run wrote in its writable mounts is read back with the file API. Host paths are mirrored under
 * one sandbox directory and rewritten both ways, so skills, workspaces and the model see the same paths
 * as with the local executors.
 */
import type {
  Experimental_SandboxProcess as SandboxProcess,
  Experimental_SandboxSession as SandboxSession,
} from "ai";
import { monotonicMs } from "../util/monotonic-ms.js";
import {
  DEFAULT_EXEC_PATH,
  DEFAULT_MAX_OUTPUT_BYTES,
  type ExecRequest,
  type ExecResult,
  type Executor,
} from "./executor.js";
import { createOutputCapture, type OutputCapture } from "./output-capture.js";
import { limitedCommand } from "./run-request.js";
import { createSandboxPathMap, type SandboxPathMap, shellQuote } from "./sandbox-path-map.js";
import { createSyncState, type SyncLimits, stageMounts, syncBack } from "./sandbox-session-sync.js";

/** Options of {@link createSandboxSessionExecutor}. */
export interface SandboxSessionExecutorOptions {
  /** The sandbox commands run in. */
  sandbox: SandboxSession;
  /**
   * Absolute sandbox directory host paths are mirrored under (host `/a/b` is `<root>/a/b`). Default
   * `<base>/.skillrt-host`, where `<base>` is the sandbox's base directory (asked once with `pwd`).
   */
  root?: string;
  /** Shell for string commands. Default `/bin/sh`. */
  shell?: string;
  /** Most bytes staged into the sandbox per run. Default 512 MiB. */
  maxStageBytes?: number;
  /** Most bytes copied back to the host per run. Default 256 MiB. */
  maxSyncBytes?: number;
  /** Most files copied back to the host per run. Default 10,000. */
  maxSyncFiles?: number;
}

/** Environment names a sandbox command may receive (others are dropped, as a shell could not pass them). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads a web stream into a capture; resolves when it ends or is cancelled. */
async function drain(stream: ReadableStream<Uint8Array>, capture: OutputCapture): Promise<void> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      capture.push(Buffer.from(value));
    }
  } catch {
    // the process was killed and its stream torn down: keep what arrived
  } finally {
    reader.releaseLock();
  }
}

/** The command line a sandbox runs for `request`: cleared environment, limits, paths mapped. */
function commandLine(
  request: ExecRequest,
  env: Record<string, string>,
  map: SandboxPathMap,
  shell: string,
): string {
  const argv = limitedCommand(request, shell).map((arg) => map.mapText(arg));
  // Values travel in the spawn's `env` (not in the command text); `env -i` drops the sandbox's defaults.
  const names = Object.keys(env).map((name) => `${name}="$${name}"`);
  return `exec env -i ${names.join(" ")} ${argv.map(shellQuote).join(" ")}`;
}

/** Creates the executor. The sandbox's lifetime stays with the caller (stop it when done). */
export function createSandboxSessionExecutor(options: SandboxSessionExecutorOptions): Executor {
  const { sandbox } = options;
  const shell = options.shell ?? "/bin/sh";
  const limits: SyncLimits = {
    maxStageBytes: options.maxStageBytes ?? 512 * 1024 ** 2,
    maxSyncBytes: options.maxSyncBytes ?? 256 * 1024 ** 2,
    maxSyncFiles: options.maxSyncFiles ?? 10_000,
  };
  const state = createSyncState();
  let root: Promise<string> | undefined;
  // Staging and copying back touch shared state and the same files: one at a time. Commands run in parallel.
  let transfers: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = transfers.then(work);
    transfers = next.catch(() => {});
    return next;
  };

  const rootDir = (): Promise<string> => {
    if (options.root !== undefined) return Promise.resolve(options.root);
    root ??= Promise.resolve(sandbox.run({ command: "pwd" })).then((r) => {
      const base = r.stdout.trim();
      if (r.exitCode !== 0 || !base.startsWith("/")) {
        root = undefined;
        throw new Error(
          `cannot find the sandbox's base directory (pwd exited ${r.exitCode}: ${r.stderr.trim()})`,
        );
      }
      return `${base === "/" ? "" : base}/.skillrt-host`;
    });
    return root;
  };

  async function runOnce(request: ExecRequest): Promise<ExecResult> {
    const started = monotonicMs();
    const cap = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const slack = Math.max(4096, (request.redactor?.maxFormLength ?? 0) * 4);
    const out = createOutputCapture(cap, slack);
    const err = createOutputCapture(cap, slack);
    const mounts = request.mounts ?? [];
    const map = createSandboxPathMap(await rootDir(), [
      ...mounts.map((m) => m.target ?? m.source),
      request.cwd,
    ]);
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries({ PATH: DEFAULT_EXEC_PATH, ...request.env })) {
      if (ENV_NAME.test(name)) env[name] = map.mapText(value);
    }
    const cwd = map.toSandbox(request.cwd);
    await exclusive(() => stageMounts(sandbox, mounts, map, state, limits, [cwd], request.abortSignal));

    const controller = new AbortController();
    let timedOut = false;
    let aborted = false;
    let timer: NodeJS.Timeout | undefined;
    // The clock starts once the sandbox has started the command: a remote sandbox's latency is not run time.
    const startClock = (): void => {
      timer = setTimeout(
        () => {
          timedOut = true;
          controller.abort(new Error(`timed out after ${request.timeoutMs} ms`));
        },
        Math.max(1, request.timeoutMs),
      );
    };
    const onAbort = (): void => {
      aborted = true;
      controller.abort(request.abortSignal?.reason);
    };
    if (request.abortSignal?.aborted === true) onAbort();
    else request.abortSignal?.addEventListener("abort", onAbort, { once: true });
    let exitCode = -1;
    let signal: string | undefined;
    const warnings: string[] = [];
    try {
      const command = commandLine(request, env, map, shell);
      const common = { command, workingDirectory: cwd, env, abortSignal: controller.signal };
      let proc: SandboxProcess;
      if (request.stdin === undefined) proc = await sandbox.spawn({ ...common, stdin: false });
      else {
        const writable = await sandbox.spawn({ ...common, stdin: true });
        const writer = writable.stdin.getWriter();
        // Not awaited: a command that never reads its stdin must not block the run.
        void writer
          .write(new TextEncoder().encode(request.stdin))
          .then(() => writer.close())
          .catch(() => {});
        proc = writable;
      }
      startClock();
      const kill = (): void => void Promise.resolve(proc.kill()).catch(() => {});
      controller.signal.addEventListener("abort", kill, { once: true });
      if (controller.signal.aborted) kill();
      const streams = Promise.all([drain(proc.stdout, out), drain(proc.stderr, err)]);
      try {
        exitCode = (await proc.wait()).exitCode;
      } catch {
        // wait() rejects when the run was aborted; it was killed
      }
      // A child that outlived its parent may still hold the pipes: stop waiting for them after a grace.
      await Promise.race([streams, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      if (timedOut || aborted) {
        exitCode = exitCode >= 128 ? exitCode : 137; // killed: report it like a SIGKILL'd local process
        signal = "SIGKILL";
      }
    } catch (error) {
      if (!timedOut && !aborted) {
        err.push(
          Buffer.from(
            `could not start in the sandbox: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
        );
      } else signal = "SIGKILL";
      exitCode = timedOut || aborted ? 137 : -1;
    } finally {
      clearTimeout(timer);
      request.abortSignal?.removeEventListener("abort", onAbort);
    }
    try {
      warnings.push(...(await exclusive(() => syncBack(sandbox, mounts, map, state, limits))));
    } catch (error) {
      warnings.push(
        `files could not be copied back from the sandbox: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const o = out.finish(request.redactor);
    const e = err.finish(request.redactor);
    return {
      exitCode,
      stdout: map.unmapText(o.text),
      stderr: map.unmapText(e.text),
      timedOut,
      aborted,
      durationMs: Math.round((monotonicMs() - started) * 100) / 100,
      truncated: { stdout: o.truncated, stderr: e.truncated },
      bytes: { stdout: o.bytes, stderr: e.bytes },
      ...(signal === undefined ? {} : { signal }),
      executor: "sandbox-session",
      warnings,
    };
  }

  return {
    kind: "sandbox-session",
    run(request: ExecRequest): Promise<ExecResult> {
      return runOnce(request).catch(
        (error: unknown): ExecResult => ({
          exitCode: -1,
          stdout: "",
          stderr: `could not run in the sandbox: ${error instanceof Error ? error.message : String(error)}`,
          timedOut: false,
          aborted: request.abortSignal?.aborted === true,
          durationMs: 0,
          truncated: { stdout: false, stderr: false },
          bytes: { stdout: 0, stderr: 0 },
          executor: "sandbox-session",
          warnings: [],
        }),
      );
    },
  };
}
