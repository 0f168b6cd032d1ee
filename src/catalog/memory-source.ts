import { SkillrtError } from "../errors/skillrt-error.js";
import type { Diagnostic, FrontmatterValue } from "../spec/types.js";
import { bodyOpening } from "./body-opening.js";
import { fileKind } from "./file-kind.js";
import { detectContent, SNIFF_BYTES } from "./mime-type.js";
import { normalizeSkillPath } from "./normalize-skill-path.js";
import { sliceLines } from "./read-skill-file.js";
import { HEAD_BYTES } from "./read-skill-head.js";
import { skillFlags } from "./skill-flags.js";
import { MEMORY_ORIGIN } from "./skill-origin.js";
import type { LineRange, MemorySkill, ReadFileResult, SkillFile, SkillRecord } from "./types.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Builds a skill in code (no folder on disk). Checks that name and description are non-empty and that
 * every resource path is relative and stays inside the skill (no `..`, no absolute path); throws a
 * `SkillrtError` (`invalid-argument`) otherwise. Resource paths are normalised (`./a\\b` → `a/b`).
 *
 * @example
 * defineSkill({ name: "greet", description: "Greets people.", body: "Say hello.",
 *   resources: { "references/tone.md": "Be warm." } })
 */
export function defineSkill(skill: MemorySkill): MemorySkill {
  const name = skill.name.trim();
  if (name === "") throw invalid("defineSkill: `name` must be a non-empty string.");
  if (skill.description.trim() === "") {
    throw invalid(
      `defineSkill: skill '${name}' needs a non-empty \`description\` (it is what the model sees).`,
    );
  }
  const resources: Record<string, string | Uint8Array> = {};
  for (const [key, value] of Object.entries(skill.resources ?? {})) {
    const normalized = normalizeSkillPath(key);
    if (!normalized.ok) throw invalid(`defineSkill: skill '${name}' resource '${key}': ${normalized.reason}`);
    resources[normalized.path] = value;
  }
  return { ...skill, name, description: skill.description.trim(), resources };
}

function invalid(message: string): SkillrtError {
  return new SkillrtError({ code: "invalid-argument", message });
}

/** Location of a memory skill's SKILL.md: `memory:<name>/SKILL.md`. */
export function memoryLocation(name: string): string {
  return `memory:${name}/SKILL.md`;
}

/**
 * The record of a memory skill (`location` `memory:<name>/SKILL.md`, `dir` `memory:<name>`, scope and
 * source `memory`), or an error diagnostic when its name or description is empty.
 */
export function memorySkillRecord(skill: MemorySkill): {
  record: SkillRecord | undefined;
  diagnostics: Diagnostic[];
} {
  const name = skill.name.trim();
  const description = skill.description.trim();
  if (name === "" || description === "") {
    return {
      record: undefined,
      diagnostics: [
        {
          code: name === "" ? "name-empty" : "description-empty",
          severity: "error",
          message: `Memory skill '${name || "(unnamed)"}' has an empty ${name === "" ? "name" : "description"}; it was not added. Build it with defineSkill() to catch this early.`,
          path: memoryLocation(name || "(unnamed)"),
        },
      ],
    };
  }
  const extras = skill.extras ?? {};
  const record: SkillRecord = {
    name,
    description,
    location: memoryLocation(name),
    dir: `memory:${name}`,
    scope: "memory",
    source: "memory",
    origin: MEMORY_ORIGIN,
    extras,
    ...skillFlags(extras),
    diagnostics: [],
  };
  if (skill.license !== undefined) record.license = skill.license;
  if (skill.compatibility !== undefined) record.compatibility = skill.compatibility;
  if (skill.allowedTools !== undefined) record.allowedTools = skill.allowedTools;
  if (skill.metadata !== undefined) record.metadata = skill.metadata;
  const { opening, headings } = bodyOpening(skill.body.slice(0, HEAD_BYTES));
  if (opening) record.opening = opening;
  if (headings) record.headings = headings;
  return { record, diagnostics: [] };
}

/**
 * The SKILL.md text of a memory skill: YAML frontmatter (values written as JSON, which is valid YAML)
 * and the body. What `readFile(name, "SKILL.md")` returns; `bodyLine` is where the body starts.
 */
export function renderMemorySkillMd(skill: MemorySkill): { text: string; bodyLine: number } {
  const lines = [
    "---",
    `name: ${JSON.stringify(skill.name.trim())}`,
    `description: ${JSON.stringify(skill.description.trim())}`,
  ];
  const fields: [string, FrontmatterValue | undefined][] = [
    ["license", skill.license],
    ["compatibility", skill.compatibility],
    ["allowed-tools", skill.allowedTools?.join(" ")],
    ["metadata", skill.metadata],
    ...Object.entries(skill.extras ?? {}),
  ];
  for (const [key, value] of fields) {
    if (value !== undefined) lines.push(`${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  }
  lines.push("---", "");
  return { text: `${lines.join("\n")}${skill.body.trim()}\n`, bodyLine: lines.length };
}

function resourceBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? encoder.encode(value) : value;
}

/** The file index of a memory skill: SKILL.md first, then its resources in sorted path order. */
export function memorySkillFiles(skill: MemorySkill): SkillFile[] {
  const skillMd = encoder.encode(renderMemorySkillMd(skill).text);
  const files: SkillFile[] = [
    { path: "SKILL.md", size: skillMd.length, kind: "doc", mimeType: "text/markdown", binary: false },
  ];
  for (const key of Object.keys(skill.resources ?? {}).sort()) {
    if (key === "SKILL.md") continue;
    const bytes = resourceBytes(skill.resources![key]!);
    const { mimeType, binary } = detectContent(key, bytes.subarray(0, SNIFF_BYTES));
    files.push({ path: key, size: bytes.length, kind: fileKind(key), mimeType, binary });
  }
  return files;
}

/** Reads a file of a memory skill with the same rules and result shapes as files on disk. */
export function readMemorySkillFile(
  skill: MemorySkill,
  requested: string,
  range?: LineRange,
): ReadFileResult {
  const normalized = normalizeSkillPath(requested);
  if (!normalized.ok) return { kind: "refused", path: requested, reason: normalized.reason };
  const rel = normalized.path;
  const files = memorySkillFiles(skill);
  const file = files.find((f) => f.path === rel);
  if (file === undefined) return { kind: "not-found", path: rel, available: files.map((f) => f.path) };
  if (file.binary) return { kind: "binary", path: rel, size: file.size, mimeType: file.mimeType };
  const value = rel === "SKILL.md" ? renderMemorySkillMd(skill).text : skill.resources![rel]!;
  const text = typeof value === "string" ? value : decoder.decode(value);
  return sliceLines(rel, text, file.size, file.mimeType, range);
}
