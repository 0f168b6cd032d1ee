/**
 * The check that makes a pinned run execute exactly what was trusted: the root's digest is computed with
 * the staged copy of the skill in place of the skill's folder, and must equal the digest the root was
 * trusted with. The bytes hashed for the skill are the bytes of the copy the run sees, so a change to the
 * real folder during or after staging either is not in the copy or fails the check.
 */
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { digestRoot } from "../catalog/root-digest.js";
import type { TrustPin } from "../catalog/skill-trust.js";
import type { SkillRecord } from "../catalog/types.js";
import { SkillChangedError } from "../errors/skill-changed-error.js";
import type { StageSkillOptions } from "./workspace.js";

function below(parent: string, child: string): string | undefined {
  const rel = path.relative(parent, child);
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join("/");
}

/**
 * Resolves when `copyDir` (a staged copy of `record`'s folder) makes `pin.root` digest to `pin.digest`;
 * throws {@link SkillChangedError} when it does not (or the root cannot be digested now).
 */
export async function verifyStagedSkill(
  pin: TrustPin,
  record: Pick<SkillRecord, "name" | "dir">,
  copyDir: string,
): Promise<void> {
  const refuse = (reason?: string): SkillChangedError =>
    new SkillChangedError({
      name: record.name,
      root: pin.root,
      howToTrust: pin.howToTrust,
      ...(reason === undefined ? {} : { reason }),
    });
  // The copy must be a folder of its own: a link there would lead the run (and this check) elsewhere.
  if ((await lstat(copyDir).catch(() => undefined))?.isDirectory() !== true)
    throw refuse(`its staged copy ${copyDir} is not a folder`);
  // Where the skill's folder sits in the root's digest: its real place below the real root, else the
  // path discovery took through a link that leaves the root (the digest follows such links).
  const [realRoot, realDir] = await Promise.all([realpath(pin.root), realpath(record.dir)]).catch(() => {
    throw refuse(`its root ${pin.root} or its folder can no longer be read`);
  });
  const rel = below(realRoot, realDir) ?? below(path.resolve(pin.root), path.resolve(record.dir));
  if (rel === undefined) throw refuse(`its folder ${record.dir} is not inside its trusted root ${pin.root}`);
  let digest: string;
  try {
    digest = await digestRoot(pin.root, { substitute: { rel, dir: copyDir } });
  } catch (error) {
    throw refuse(`its root cannot be checked against what was trusted (${(error as Error).message})`);
  }
  if (digest !== pin.digest) throw refuse();
}

/**
 * The `verify` option of `Workspace.stageSkill` for a skill pinned to `pin`: the copy is checked with
 * {@link verifyStagedSkill}, and a checked copy is re-used while the pinned digest is the same.
 */
export function pinnedStaging(
  pin: TrustPin,
  record: Pick<SkillRecord, "name" | "dir">,
): NonNullable<StageSkillOptions["verify"]> {
  return { key: pin.digest, check: (viewDir) => verifyStagedSkill(pin, record, viewDir) };
}
