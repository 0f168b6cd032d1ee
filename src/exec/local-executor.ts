/**
 * The `local` executor: a plain child process in its own process group, with the same cleared
 * environment and rlimit wrapper as the sandbox, but no file-system or network isolation. Used when
 * bubblewrap is unavailable (with a warning) or when chosen explicitly.
 */
import type { ExecRequest, ExecResult, Executor } from "./executor.js";
import { DEFAULT_LIMITS, withLimits } from "./limits.js";
import { runProcess } from "./run-process.js";
import { defaultShell } from "./sandbox-executor.js";

/** Creates the local executor. `mounts` in requests are ignored (the host file system is visible). */
export function createLocalExecutor(): Executor {
  const shell = defaultShell();
  return {
    kind: "local",
    async run(request: ExecRequest): Promise<ExecResult> {
      const command = typeof request.command === "string" ? [shell, "-c", request.command] : request.command;
      const env = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", ...request.env };
      const result = await runProcess({
        argv: withLimits(command, request.limits ?? DEFAULT_LIMITS),
        cwd: request.cwd,
        env,
        timeoutMs: request.timeoutMs,
        ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
        ...(request.abortSignal === undefined ? {} : { abortSignal: request.abortSignal }),
        ...(request.maxOutputBytes === undefined ? {} : { maxOutputBytes: request.maxOutputBytes }),
        ...(request.redactor === undefined ? {} : { redactor: request.redactor }),
      });
      const { spawnError: _ignored, ...rest } = result;
      return { ...rest, executor: "local", warnings: [] };
    },
  };
}
