/**
 * The content digest of a skill root: what the user saw when they trusted it. Any file added, removed,
 * renamed or edited under the root changes it, so a changed root needs trust again.
 */
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink, stat as statPath } from "node:fs/promises";
import path from "node:path";

/** Most entries a digest walks; a larger root is refused (nobody reviewed that much). */
export const MAX_DIGEST_ENTRIES = 20_000;
/** Most bytes a digest reads. */
export const MAX_DIGEST_BYTES = 512 * 1024 * 1024;

/** Folders left out of a root's digest (version control and installed packages, not skill content). */
const SKIPPED = new Set([".git", "node_modules"]);

/**
 * `sha256:<hex>` over every entry under `root`, in sorted order: each file's relative path and the
 * SHA-256 of its bytes, each symbolic link's path and target (never followed). Throws when `root` is not a
 * readable directory, or past {@link MAX_DIGEST_ENTRIES} entries or {@link MAX_DIGEST_BYTES} bytes.
 */
export async function digestRoot(root: string): Promise<string> {
  const hash = createHash("sha256");
  let entries = 0;
  let bytes = 0;
  const walk = async (dir: string, rel: string): Promise<void> => {
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      if (SKIPPED.has(name)) continue;
      entries += 1;
      if (entries > MAX_DIGEST_ENTRIES)
        throw new Error(`${root} holds more than ${MAX_DIGEST_ENTRIES.toLocaleString("en-US")} entries`);
      const full = path.join(dir, name);
      const relPath = rel === "" ? name : `${rel}/${name}`;
      const stat = await lstat(full);
      if (stat.isDirectory()) {
        hash.update(`d ${relPath}\n`);
        await walk(full, relPath);
      } else if (stat.isSymbolicLink()) {
        hash.update(`l ${relPath}\0${await readlink(full)}\n`);
      } else if (stat.isFile()) {
        bytes += stat.size;
        if (bytes > MAX_DIGEST_BYTES)
          throw new Error(`${root} holds more than ${MAX_DIGEST_BYTES / 1024 / 1024} MiB`);
        const content = await readFile(full);
        const mode = (stat.mode & 0o111) === 0 ? "f" : "x";
        hash.update(`${mode} ${relPath}\0${createHash("sha256").update(content).digest("hex")}\n`);
      }
    }
  };
  // The root itself may be a link to its folder (as a skills folder often is); what is under it is not followed.
  if (!(await statPath(root)).isDirectory()) throw new Error(`${root} is not a directory`);
  await walk(root, "");
  return `sha256:${hash.digest("hex")}`;
}
