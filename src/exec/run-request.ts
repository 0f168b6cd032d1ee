/**
 * What every executor does around its own launcher: turn the request's command into an argv under the
 * rlimit wrapper, run it with the request's stdin, abort signal, output cap and redactor, and report the
 * outcome as an {@link ExecResult} of its kind.
 */
import type { ExecRequest, ExecResult, ExecutorKind } from "./executor.js";
import { DEFAULT_LIMITS, withLimits } from "./limits.js";
import { type RunProcessOptions, runProcess } from "./run-process.js";

/**
 * The request's command as an argv wrapped in its limits (default `DEFAULT_LIMITS`): an argv array as
 * given, a string through `<shell> -c`.
 */
export function limitedCommand(request: ExecRequest, shell: string): string[] {
  const command = typeof request.command === "string" ? [shell, "-c", request.command] : request.command;
  return withLimits(command, request.limits ?? DEFAULT_LIMITS);
}

/** How an executor launches a request: the process to start (see `runProcess`). */
export type RequestLaunch = Pick<
  RunProcessOptions,
  "argv" | "cwd" | "env" | "onKill" | "dieWithOwner" | "onOwnerDeath"
>;

/** Runs `launch` for `request` on the executor `kind`; never rejects (a failed start is exit -1). */
export async function runRequest(
  kind: ExecutorKind,
  request: ExecRequest,
  launch: RequestLaunch,
): Promise<ExecResult> {
  const { spawnError: _ignored, ...result } = await runProcess({
    ...launch,
    timeoutMs: request.timeoutMs,
    ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
    ...(request.abortSignal === undefined ? {} : { abortSignal: request.abortSignal }),
    ...(request.maxOutputBytes === undefined ? {} : { maxOutputBytes: request.maxOutputBytes }),
    ...(request.redactor === undefined ? {} : { redactor: request.redactor }),
    ...(request.interactive === undefined ? {} : { interactive: request.interactive }),
    ...(request.onOutput === undefined ? {} : { onOutput: request.onOutput }),
  });
  return { ...result, executor: kind, warnings: [] };
}
