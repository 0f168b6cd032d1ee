/**
 * The file side of a single-file skill (`NAME.skill.md`): it has no folder, so its file index is the one
 * `SKILL.md` (the file itself) and a read of any other path finds nothing — never a file beside it in the
 * folder it sits in.
 */
import fs from "node:fs/promises";
import { normalizeSkillPath } from "./normalize-skill-path.js";
import { sliceLines } from "./read-skill-file.js";
import { MAX_SKILL_FILE_BYTES } from "./read-skill-head.js";
import type { LineRange, ReadFileResult, SkillFile, SkillRecord } from "./types.js";

const MIME = "text/markdown";

/** The file index of a single-file skill: `SKILL.md` alone (empty when the file is gone). */
export async function singleFileSkillFiles(record: Pick<SkillRecord, "location">): Promise<SkillFile[]> {
  const stat = await fs.stat(record.location).catch(() => undefined);
  if (stat === undefined || !stat.isFile()) return [];
  return [{ path: "SKILL.md", size: stat.size, kind: "doc", mimeType: MIME, binary: false }];
}

/** Reads `SKILL.md` of a single-file skill (its file); every other path is not found, `..` and the like refused. */
export async function readSingleFileSkill(
  record: Pick<SkillRecord, "location">,
  requested: string,
  range: LineRange | undefined,
): Promise<ReadFileResult> {
  const normalized = normalizeSkillPath(requested);
  if (!normalized.ok) return { kind: "refused", path: requested, reason: normalized.reason };
  if (normalized.path.toLowerCase() !== "skill.md")
    return { kind: "not-found", path: normalized.path, available: ["SKILL.md"] };
  const stat = await fs.stat(record.location).catch(() => undefined);
  if (stat === undefined || !stat.isFile()) return { kind: "not-found", path: "SKILL.md", available: [] };
  if (stat.size > MAX_SKILL_FILE_BYTES)
    return {
      kind: "refused",
      path: "SKILL.md",
      reason: `'SKILL.md' is ${stat.size} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit for a skill file.`,
    };
  const text = await fs.readFile(record.location, "utf8");
  return sliceLines("SKILL.md", text, stat.size, MIME, range);
}
