/**
 * Resolving a root-relative path through held directories, following symlinks by their text only while
 * they stay inside the root (the kernel never follows them for the host).
 */
import { readlinkSync } from "node:fs";
import path from "node:path";
import {
  BeneathError,
  type DirHandle,
  join,
  lstatIn,
  openSubdir,
  openSubpath,
  reopen,
} from "./dir-handle.js";

/** Symlinks followed (by their text) while resolving one path under a root. */
const MAX_HOPS = 16;

/** The result of resolving a path under a root: the held parent directory and the last name in it. */
export interface Resolved {
  parent: DirHandle;
  /** Last component (`""` when the path is the root itself). */
  name: string;
  /** Root-relative path after resolving symlinks. */
  rel: string;
}

/**
 * Resolves `rel` under the root held by `root` (whose absolute path is `rootPath`), following symlinks
 * by their text only while they stay inside the root: a relative target continues from the link's
 * directory, an absolute one must lie under `rootPath`; `..` climbs lexically over directories already
 * checked, never above the root. With `followLast: false` the last component is returned as is
 * (possibly a symlink). Throws `BeneathError` when the path leaves the root, loops, or an intermediate
 * component is missing or not a directory. The caller closes `parent`.
 */
export async function resolveBeneath(
  root: DirHandle,
  rootPath: string,
  rel: string,
  options: { followLast?: boolean } = {},
): Promise<Resolved> {
  let pending = splitRel(rel, rel);
  const done: string[] = [];
  let hops = 0;
  let parent = await reopen(root);
  const here = (name: string): string => join(done.join("/"), name);
  try {
    while (pending.length > 0) {
      const name = pending.shift() as string;
      if (name === "..") {
        if (done.length === 0) throw new BeneathError("outside", `${rel} leaves the workspace`);
        done.pop();
        await parent.close();
        parent = await openSubpath(root, done.join("/"));
        continue;
      }
      const last = pending.length === 0;
      const stat = await lstatIn(parent, name);
      if (stat?.isSymbolicLink() === true && (!last || options.followLast !== false)) {
        if (++hops > MAX_HOPS) throw new BeneathError("loop", `${rel}: too many symbolic links`);
        const target = readlinkSync(`${parent.at}/${name}`);
        if (path.isAbsolute(target)) {
          const inside = path.relative(rootPath, path.normalize(target));
          if (inside.startsWith("..") || path.isAbsolute(inside))
            throw new BeneathError("outside", `${here(name)} is a symlink that leaves the workspace`);
          done.length = 0;
          await parent.close();
          parent = await reopen(root);
          pending = [...splitRel(inside, rel), ...pending];
        } else {
          pending = [...splitRel(target, rel), ...pending];
        }
        continue;
      }
      if (last) return { parent, name, rel: here(name) };
      if (stat === undefined) throw new BeneathError("missing", `${here(name)} does not exist`);
      const next = await openSubdir(parent, name);
      await parent.close();
      parent = { ...next, rel: here(name) };
      done.push(name);
    }
    return { parent, name: "", rel: done.join("/") };
  } catch (error) {
    await parent.close();
    throw error;
  }
}

function splitRel(rel: string, original: string): string[] {
  if (rel.includes("\0")) throw new BeneathError("invalid", `${original}: invalid path`);
  return rel.split("/").filter((p) => p !== "" && p !== ".");
}

/** Opens a resolved entry as a held directory (the root itself when `name` is `""`). */
export async function openResolvedDir(resolved: Resolved): Promise<DirHandle> {
  if (resolved.name === "") return reopen(resolved.parent);
  const dir = await openSubdir(resolved.parent, resolved.name);
  return { ...dir, rel: resolved.rel };
}
