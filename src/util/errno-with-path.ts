/**
 * A system error with the file it was about. Node names the path of a failed `open` or `rename`, but not
 * of a failed `write` to an open descriptor: a full disk then reads "ENOSPC: no space left on device,
 * write", and the person cannot tell which disk. Writers of files a person must be able to find (the trust
 * file, the lock file) pass their errors through this before throwing them.
 */
export function errnoWithPath(error: unknown, file: string): unknown {
  if (typeof error !== "object" || error === null) return error;
  const errno = error as { code?: unknown; path?: unknown };
  if (typeof errno.code === "string" && errno.path === undefined) errno.path = file;
  return error;
}
