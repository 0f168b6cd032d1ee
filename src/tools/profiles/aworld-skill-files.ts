/**
 * AWorld's two listing actions over a skill's files (`context_skill_tool.py`): `list_skill_file_tree`, an
 * ASCII tree (`├──` / `└──`, directories first, hidden entries skipped, at most 10 levels below the root),
 * and `list_skill_directory`, one directory as `Directory: <dir>/`, `Contents:`, then `📁 name/` and
 * `📄 name` entries. Both work from the catalog's file list (so they are confined to the skill and work for
 * skills that are not on disk); a directory exists when a listed file sits under it.
 */
import path from "node:path";
import type { SkillFile } from "../../catalog/types.js";

const MAX_DEPTH = 10;

interface Node {
  dirs: Map<string, Node>;
  files: Set<string>;
}

function buildTree(files: readonly SkillFile[]): Node {
  const root: Node = { dirs: new Map(), files: new Set() };
  for (const file of files) {
    const parts = file.path.split("/").filter((p) => p !== "");
    if (parts.some((p) => p.startsWith("."))) continue;
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      let next = node.dirs.get(dir);
      if (next === undefined) {
        next = { dirs: new Map(), files: new Set() };
        node.dirs.set(dir, next);
      }
      node = next;
    }
    const name = parts.at(-1);
    if (name !== undefined) node.files.add(name);
  }
  return root;
}

const sorted = (names: Iterable<string>): string[] => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** AWorld's file tree of a skill: `<folder>/` then one `├── ` / `└── ` line per entry. */
export function renderSkillFileTree(folder: string, files: readonly SkillFile[]): string {
  const lines = [`${folder}/`];
  const walk = (node: Node, prefix: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const entries = [
      ...sorted(node.dirs.keys()).map((name) => ({ name, dir: node.dirs.get(name) })),
      ...sorted(node.files).map((name) => ({ name, dir: undefined })),
    ];
    entries.forEach((entry, i) => {
      const last = i === entries.length - 1;
      lines.push(`${prefix}${last ? "└── " : "├── "}${entry.name}${entry.dir === undefined ? "" : "/"}`);
      if (entry.dir !== undefined && depth + 1 <= MAX_DEPTH)
        walk(entry.dir, prefix + (last ? "    " : "│   "), depth + 1);
    });
  };
  walk(buildTree(files), "", 1);
  return lines.join("\n");
}

/** The outcome of {@link renderSkillDirectory}: the listing, or AWorld's error text. */
export type SkillDirectoryListing = { ok: true; text: string } | { ok: false; message: string };

/**
 * AWorld's listing of one directory of a skill. `dirPath` is relative to the skill (an `@` or
 * `@<folder>/` prefix is stripped); empty means the root. `dir` is the skill's directory, for messages.
 */
export function renderSkillDirectory(
  skill: string,
  dir: string,
  dirPath: string | undefined,
  files: readonly SkillFile[],
): SkillDirectoryListing {
  const folder = path.basename(dir);
  let rel = dirPath ?? "";
  if (rel.startsWith("@")) {
    rel = rel.slice(1);
    if (rel.startsWith(`${folder}/`)) rel = rel.slice(folder.length + 1);
  }
  const normalized = rel === "" ? "" : path.posix.normalize(rel.replaceAll("\\", "/")).replace(/\/+$/, "");
  if (normalized === ".." || normalized.startsWith("../") || path.posix.isAbsolute(normalized))
    return { ok: false, message: `Directory path ${rel} is outside skill directory` };
  const target = normalized === "." ? "" : normalized;
  let node: Node | undefined = buildTree(files);
  for (const part of target === "" ? [] : target.split("/")) node = node?.dirs.get(part);
  if (node === undefined) {
    const parent = buildTree(files);
    const parts = target.split("/");
    let at: Node | undefined = parent;
    for (const part of parts.slice(0, -1)) at = at?.dirs.get(part);
    const full = path.join(dir, target);
    if (at?.files.has(parts.at(-1) ?? "") === true)
      return { ok: false, message: `Path is not a directory: ${full}` };
    return {
      ok: false,
      message: `Directory not found: ${full} (skill: ${skill}, relative path: ${rel})`,
    };
  }
  const label = rel === "" ? skill : rel;
  if (node.dirs.size === 0 && node.files.size === 0)
    return { ok: true, text: `Directory '${label}' is empty.` };
  const lines = [`Directory: ${label}/`, "", "Contents:"];
  if (node.dirs.size > 0) {
    lines.push("  Directories:");
    for (const name of sorted(node.dirs.keys())) lines.push(`  📁 ${name}/`);
  }
  if (node.files.size > 0) {
    lines.push("  Files:");
    for (const name of sorted(node.files)) lines.push(`  📄 ${name}`);
  }
  return { ok: true, text: lines.join("\n") };
}
