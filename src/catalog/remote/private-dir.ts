import { chmod, lstat } from "node:fs/promises";
import { checkCacheDir } from "../../util/trusted-cache.js";
import { RemoteRootError } from "./remote-root-error.js";

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks it by the cache rule along its whole path
 * (`checkCacheDir`: no folder on the way another user owns or can write, no symlink another user made), and
 * that it is a real directory (not a link), with no access for group or others (tightened to 0700 when it
 * was readable by them). Anything else is refused, since another user could then swap what a root
 * resolves to.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const trust = checkCacheDir(dir, { create: true });
  const stat = trust.ok ? await lstat(dir) : undefined;
  const problem = !trust.ok
    ? trust.reason
    : stat?.isDirectory() !== true
      ? "it is not a directory (a link?)"
      : undefined;
  if (problem !== undefined || stat === undefined)
    throw new RemoteRootError({
      code: "root-fetch-failed",
      message: `The remote roots cache ${dir} is not used: ${problem}; remove it or set SKILLRT_CACHE_DIR.`,
    });
  if ((stat.mode & 0o077) !== 0) await chmod(dir, 0o700);
}
