import { chmod, lstat, mkdir } from "node:fs/promises";
import { RemoteRootError } from "./remote-root-error.js";

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks what is there: a real directory (not a
 * link) owned by this user, with no access for group or others (tightened to 0700 when it was looser).
 * Anything else is refused, since another user could then swap what a root resolves to.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await lstat(dir);
  const uid = process.getuid?.();
  const problem = !stat.isDirectory()
    ? "is not a directory (a link?)"
    : uid !== undefined && stat.uid !== uid
      ? `is owned by uid ${stat.uid}, not by this user (${uid})`
      : undefined;
  if (problem !== undefined)
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `The remote roots cache ${dir} ${problem}; remove it or set SKILLRT_CACHE_DIR.`,
    });
  if ((stat.mode & 0o077) !== 0) await chmod(dir, 0o700);
}
