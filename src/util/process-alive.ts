/**
 * Whether a process id is in use. Leftovers of a crash are named after the pid that made them; a later
 * start removes them only once that pid is gone. A pid taken again by an unrelated process reads as alive:
 * its leftovers then wait for a later start (never removed too early).
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
