import fs from "node:fs/promises";
import { fileKind } from "./file-kind.js";
import { detectContent, SNIFF_BYTES } from "./mime-type.js";
import type { SkillFile } from "./types.js";

/** Limits of {@link listSkillFiles}. */
export interface ListSkillFilesOptions {
  /** Most files listed. Default 2,000. */
  maxFiles?: number;
  /** Deepest folder level listed below the skill directory. Default 8. */
  maxDepth?: number;
}

const SKIPPED = new Set([".git", "node_modules", "__pycache__"]);

/**
 * The file index of a skill on disk: every file below its real directory `dir`, as relative
 * `/`-separated paths, with size, kind, mime type and binary flag (from the extension and the first
 * bytes). The skill file (`SKILL.md`) comes first, then sorted paths. Not listed: hidden entries
 * (`.env`, `.git/`), `node_modules/`, `__pycache__/`, folders holding their own SKILL.md (nested
 * skills are separate skills), and symlinks whose target leaves `dir`.
 */
export async function listSkillFiles(
  dir: string,
  skillFileName = "SKILL.md",
  options: ListSkillFilesOptions = {},
): Promise<SkillFile[]> {
  const maxFiles = options.maxFiles ?? 2000;
  const maxDepth = options.maxDepth ?? 8;
  const found: { rel: string; abs: string; size: number }[] = [];
  const pending: { rel: string; abs: string; depth: number }[] = [{ rel: "", abs: dir, depth: 0 }];
  while (pending.length > 0 && found.length < maxFiles) {
    const folder = pending.shift()!;
    let entries: string[];
    try {
      entries = (await fs.readdir(folder.abs)).sort();
    } catch {
      continue;
    }
    if (folder.depth > 0 && (entries.includes("SKILL.md") || entries.includes("skill.md"))) continue;
    for (const name of entries) {
      if (name.startsWith(".") || SKIPPED.has(name)) continue;
      const abs = `${folder.abs}/${name}`;
      const rel = folder.rel === "" ? name : `${folder.rel}/${name}`;
      const stat = await statInside(dir, abs);
      if (stat === undefined) continue;
      if (stat.isDirectory()) {
        if (folder.depth < maxDepth) pending.push({ rel, abs, depth: folder.depth + 1 });
      } else if (stat.isFile() && found.length < maxFiles) {
        found.push({ rel, abs, size: stat.size });
      }
    }
  }
  found.sort((a, b) => rank(a.rel, skillFileName) - rank(b.rel, skillFileName) || (a.rel < b.rel ? -1 : 1));
  return Promise.all(
    found.map(async ({ rel, abs, size }) => {
      const { mimeType, binary } = detectContent(rel, await readHead(abs, size));
      return { path: rel, size, kind: fileKind(rel), mimeType, binary };
    }),
  );
}

function rank(rel: string, skillFileName: string): number {
  return rel === skillFileName ? 0 : 1;
}

/** Stat of `abs` following links, or undefined when missing or when a link's target leaves `dir`. */
async function statInside(dir: string, abs: string) {
  try {
    const lstat = await fs.lstat(abs);
    if (!lstat.isSymbolicLink()) return lstat;
    const real = await fs.realpath(abs);
    if (real !== dir && !real.startsWith(`${dir}/`)) return undefined;
    return await fs.stat(real);
  } catch {
    return undefined;
  }
}

/** The first bytes of a file (up to {@link SNIFF_BYTES}); empty when unreadable. */
export async function readHead(abs: string, size: number): Promise<Uint8Array> {
  if (size === 0) return new Uint8Array(0);
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(abs, "r");
    const buffer = new Uint8Array(Math.min(size, SNIFF_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return new Uint8Array(0);
  } finally {
    await handle?.close();
  }
}
