/** Process-group signalling: every run is a group leader, so one negative-pid kill reaches its whole tree. */

/** Sends `signal` to the process group `pgid`; returns false when the group is already gone. */
export function killProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
