/**
 * The `local` executor: a plain child process in its own process group, with the same cleared
 * environment and rlimit wrapper as the sandbox, but no file-system or network isolation. Used when
 * bubblewrap is unavailable (with a warning) or when chosen explicitly. The group dies with skillrt, even
 * when skillrt is killed with SIGKILL (`owner-watch.ts`).
 */
import { DEFAULT_EXEC_PATH, type ExecRequest, type ExecResult, type Executor } from "./executor.js";
import { limitedCommand, runRequest } from "./run-request.js";
import { defaultShell } from "./sandbox-executor.js";

/** Creates the local executor. `mounts` in requests are ignored (the host file system is visible). */
export function createLocalExecutor(): Executor {
  const shell = defaultShell();
  return {
    kind: "local",
    async run(request: ExecRequest): Promise<ExecResult> {
      return runRequest("local", request, {
        argv: limitedCommand(request, shell),
        cwd: request.cwd,
        env: { PATH: DEFAULT_EXEC_PATH, ...request.env },
        // Nothing else ties the command to skillrt: without this a killed `ask` leaves it running.
        dieWithOwner: true,
      });
    },
  };
}
