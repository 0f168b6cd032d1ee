import { chmod, lstat } from "node:fs/promises";
import { checkCacheDir } from "../../util/trusted-cache.js";
import { RemoteRootError } from "./remote-root-error.js";

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks it by the cache rule along its whole path
 * (`checkCacheDir`: no folder on the way another user owns or can write, no symlink another user made), and
 * that it is a real directory (not a link), with no access for group or others (tightened to 0700 when it
 * was readable by them). Anything else is refused, since another user could then swap what a root
 * resolves to, or plant the content a root is read from.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const trust = checkCacheDir(dir, { create: true });
  if (!trust.ok) refuse(trust.dir, trust.reason);
  const stat = await lstat(dir);
  if (!stat.isDirectory()) refuse(dir, "it is not a directory (a link?)");
  if ((stat.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/**
 * The `remote/` folder of skillrt's cache directory `cacheDir`, created private, after `cacheDir`
 * itself passed {@link checkCacheDir} (a cache directory other users can write is refused, not fixed:
 * it is not this code's to change).
 */
export async function ensureRemoteCache(cacheDir: string, remote: string): Promise<void> {
  const trust = checkCacheDir(cacheDir, { create: true });
  if (!trust.ok) refuse(trust.dir, trust.reason);
  await ensurePrivateDir(remote);
}

function refuse(dir: string, reason: string): never {
  throw new RemoteRootError({
    code: "root-fetch-failed",
    message:
      `The remote roots cache ${dir} is not used: ${reason}; no remote root is fetched or read from it. ` +
      `Fix: make it yours and private (chown $(id -u) and chmod 700 ${dir}), or set SKILLRT_CACHE_DIR to a private directory.`,
  });
}
