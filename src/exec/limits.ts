/**
 * Resource limits applied to every run through a tiny `/bin/sh` wrapper (`ulimit …; exec "$@"`), so the
 * same mechanism works inside bubblewrap, in a container and for a plain local child.
 */

/** rlimits for one run. `undefined` fields are left as inherited. */
export interface ExecLimits {
  /** CPU seconds (RLIMIT_CPU). Default 300. */
  cpuSeconds?: number;
  /** Address-space bytes (RLIMIT_AS). Default 8 GiB (V8 and Python reserve a lot of virtual memory). */
  addressSpaceBytes?: number;
  /** Largest file the command may write (RLIMIT_FSIZE). Default 1 GiB. */
  fileSizeBytes?: number;
  /**
   * Processes of the sandbox user (RLIMIT_NPROC). Default 512. The kernel does not enforce it for
   * root on the host; the sandbox's pid namespace and the process-group kill still bound the tree.
   */
  maxProcesses?: number;
  /** Open file descriptors (RLIMIT_NOFILE). Default 1024. */
  openFiles?: number;
  /**
   * Size of the sandbox's private `/tmp` (bubblewrap `--size`; not an rlimit, other executors ignore
   * it). Default: unbounded, except under `runSkillCommand`, which sets it to the run's disk quota.
   */
  tmpBytes?: number;
}

/** Limits used when a request gives none. */
export const DEFAULT_LIMITS: Readonly<Required<Omit<ExecLimits, "tmpBytes">>> = Object.freeze({
  cpuSeconds: 300,
  addressSpaceBytes: 8 * 1024 ** 3,
  fileSizeBytes: 1024 ** 3,
  maxProcesses: 512,
  openFiles: 1024,
});

function whole(n: number | undefined): number | undefined {
  return n === undefined || !Number.isFinite(n) || n <= 0 ? undefined : Math.max(1, Math.floor(n));
}

/**
 * The shell script that applies `limits` and then `exec`s its arguments. Each `ulimit` is separate
 * (dash accepts one option per call) and failures are ignored (`2>/dev/null`), so a limit the OS
 * refuses never stops the run. `-f` counts 512-byte blocks (POSIX; bash outside POSIX mode reads
 * 1024, i.e. a twice larger limit); the process limit is `-p` in dash and `-u` in bash.
 */
export function limitsScript(limits: ExecLimits = DEFAULT_LIMITS): string {
  const parts: string[] = [];
  const cpu = whole(limits.cpuSeconds);
  const as = whole(limits.addressSpaceBytes);
  const fsize = whole(limits.fileSizeBytes);
  const nproc = whole(limits.maxProcesses);
  const nofile = whole(limits.openFiles);
  if (cpu !== undefined) parts.push(`ulimit -t ${cpu} 2>/dev/null`);
  if (as !== undefined) parts.push(`ulimit -v ${Math.max(1, Math.floor(as / 1024))} 2>/dev/null`);
  if (fsize !== undefined) parts.push(`ulimit -f ${Math.max(1, Math.ceil(fsize / 512))} 2>/dev/null`);
  if (nproc !== undefined) parts.push(`{ ulimit -p ${nproc} || ulimit -u ${nproc}; } 2>/dev/null`);
  if (nofile !== undefined) parts.push(`ulimit -n ${nofile} 2>/dev/null`);
  parts.push('exec "$@"');
  return parts.join("; ");
}

/**
 * Wraps an argv so `limits` apply to it: `["/bin/sh", "-c", script, "skillrt-limits", ...argv]`.
 * A string command becomes `/bin/sh -c <command>` under the wrapper.
 */
export function withLimits(command: string[] | string, limits: ExecLimits = DEFAULT_LIMITS): string[] {
  const argv = typeof command === "string" ? ["/bin/sh", "-c", command] : command;
  return ["/bin/sh", "-c", limitsScript(limits), "skillrt-limits", ...argv];
}
