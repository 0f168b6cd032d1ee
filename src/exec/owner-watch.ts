/**
 * Ties a process group to the life of the skillrt process that started it, on any POSIX system (Node has
 * no parent-death signal): the group's first process forks a watcher holding one end of a pipe whose other
 * end only skillrt holds. When skillrt dies — even by SIGKILL, the kernel closes its descriptors — the
 * watcher reads end-of-file and kills its whole process group. The command itself runs with the pipe
 * closed. A process that moves to another group or session (setsid) is out of reach, as for any group kill.
 */

/** The descriptor number the watcher's pipe has in the started process (the fourth stdio entry). */
export const OWNER_PIPE_FD = 3;

/**
 * `argv` under the owner watch: `/bin/sh -c <watch> skillrt-owner-watch argv...`. Start it as a process
 * group leader with a pipe at descriptor {@link OWNER_PIPE_FD} that nothing else holds. `cleanup`, when
 * given, is run by the watcher (and waited for) before the group is killed: for what lives outside the
 * group, such as a container (`docker kill <name>`).
 */
export function ownerWatchedArgv(argv: readonly string[], cleanup?: readonly string[]): string[] {
  // `read` returns only at end-of-file (skillrt never writes): then the group goes, watcher included. The
  // watcher ignores SIGINT/SIGQUIT like any background job of a non-interactive shell; a group kill on
  // timeout or when the run ends takes it down with the rest.
  const before =
    cleanup === undefined || cleanup.length === 0 ? "" : `${cleanup.map(shellQuote).join(" ")}; `;
  const watch = `(read -r _ <&${OWNER_PIPE_FD}; ${before}kill -KILL 0) & exec ${OWNER_PIPE_FD}<&- "$@"`;
  return ["/bin/sh", "-c", watch, "skillrt-owner-watch", ...argv];
}

/** `word` as one single-quoted shell word (a `'` inside becomes `'\''`). */
function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
