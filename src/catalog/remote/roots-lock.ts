/**
 * `skillrt.lock.json`: every remote root of a project pinned to the content it resolved to (`skillrt
 * lock`). With the lock present, a root resolves to its pinned content — the cached copy, or a fetch that
 * must have the pinned digest — and a changed upstream is not taken until `skillrt lock --update`.
 */
import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { errnoWithPath } from "../../util/errno-with-path.js";
import { readJsonFile } from "../../util/read-json-file.js";
import { removeDeadPidLeftovers } from "../../util/remove-dead-pid-leftovers.js";
import type { RootSpec } from "./root-spec.js";

/** The lock's file name, in the project folder. */
export const ROOTS_LOCK_FILE = "skillrt.lock.json";

/** The whole lock: source (as written, credentials redacted, without `#sha256=`) → its resolved digest. */
export const RootsLockFile = z.object({
  version: z.literal(1),
  roots: z.record(
    z.string(),
    z.object({ digest: z.string().regex(/^(sha256:[0-9a-f]{64}|git:[0-9a-f]{40}([0-9a-f]{24})?)$/) }),
  ),
});
/** The whole lock. */
export type RootsLockFile = z.infer<typeof RootsLockFile>;

/**
 * The pins of `<projectDir>/skillrt.lock.json` (source → digest): undefined without a lock; `{ error }`
 * when it cannot be read or is not a lock (then nothing is pinned, and the caller says so).
 */
export async function readRootsLock(
  projectDir: string,
): Promise<Map<string, string> | { error: string } | undefined> {
  const file = path.join(projectDir, ROOTS_LOCK_FILE);
  const read = await readJsonFile(file);
  if (read === undefined) return undefined;
  if ("error" in read) return { error: `${file}: ${read.error}` };
  const parsed = RootsLockFile.safeParse(read.json);
  if (!parsed.success)
    return { error: `${file}: not a skillrt lock (run \`skillrt lock --update\` to write it again)` };
  return new Map(Object.entries(parsed.data.roots).map(([source, pin]) => [source, pin.digest]));
}

/**
 * Writes the lock of `pins` (sorted by source, so it diffs cleanly) into `projectDir`, whole: through
 * `skillrt.lock.json.<pid>.tmp`, which a failed write (a full disk) removes, and which a later write removes
 * when a killed process left it.
 */
export async function writeRootsLock(projectDir: string, pins: ReadonlyMap<string, string>): Promise<string> {
  const file = path.join(projectDir, ROOTS_LOCK_FILE);
  const roots: RootsLockFile["roots"] = {};
  for (const source of [...pins.keys()].sort()) roots[source] = { digest: pins.get(source) as string };
  await removeDeadPidLeftovers(projectDir, { pidOf: lockTempPid });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify({ version: 1, roots }, null, 2)}\n`);
    await rename(temp, file);
  } catch (error) {
    // A full disk leaves neither a partial temporary file in the project nor an error without the path.
    await rm(temp, { force: true }).catch(() => undefined);
    throw errnoWithPath(error, file);
  }
  return file;
}

/** The pid in `skillrt.lock.json.<pid>.tmp`; `undefined` for any other name. */
function lockTempPid(name: string): number | undefined {
  const match = /^skillrt\.lock\.json\.(\d+)\.tmp$/.exec(name);
  return match === null ? undefined : Number(match[1]);
}

/**
 * `spec` pinned to `digest`: an archive or SKILL.md to its SHA-256 (an explicit `#sha256=` is kept), a
 * git repository to its commit.
 */
export function pinSpec(spec: RootSpec, digest: string): RootSpec {
  if (digest.startsWith("git:")) return spec.kind === "git" ? { ...spec, ref: digest.slice(4) } : spec;
  if (spec.kind === "git" || spec.sha256 !== undefined) return spec;
  return { ...spec, sha256: digest.slice("sha256:".length) };
}
