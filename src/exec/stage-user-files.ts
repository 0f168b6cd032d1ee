/**
 * Files a user attaches to a turn, staged into the workspace's `work/inputs/` (trpc-agent-go's
 * `internal/workspaceinput/stager.go`): names cut to their basename (`upload`, `upload_2`, … when none is
 * left), a name already taken by other content gets `_2`, `_3` before its extension, the same content
 * attached again reuses its file, and a problem is a warning starting `user file input:` (the other
 * files are still staged).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Workspace } from "./workspace.js";
import { writeFileNoFollow } from "./write-file-no-follow.js";

/** One attached file: its name as the user gave it, and its bytes. */
export interface UserFile {
  name: string;
  content: Uint8Array;
}

/** Largest attached file staged: 64 MiB. */
export const MAX_USER_FILE_BYTES = 64 * 1024 * 1024;

/** What was staged (workspace-relative paths, in the order given) and the warnings. */
export interface StagedUserFiles {
  staged: string[];
  warnings: string[];
}

// Per workspace: staged path by content digest, and the names in use.
const cache = new WeakMap<
  Workspace,
  { byDigest: Map<string, string>; names: Set<string>; uploads: number }
>();

function baseName(name: string): string {
  const base = path.posix.basename(name.replace(/\\/g, "/")).replace(/[\0-\x1f]/g, "");
  return base === "." || base === ".." ? "" : base.trim();
}

/** Stages `files` into `work/inputs/` of `workspace`. */
export async function stageUserFiles(
  workspace: Workspace,
  files: readonly UserFile[],
): Promise<StagedUserFiles> {
  let state = cache.get(workspace);
  if (state === undefined) {
    state = { byDigest: new Map(), names: new Set(), uploads: 0 };
    cache.set(workspace, state);
  }
  const dir = path.join(workspace.root, "work", "inputs");
  await mkdir(dir, { recursive: true });
  const staged: string[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    if (file.content.byteLength > MAX_USER_FILE_BYTES) {
      warnings.push(`user file input: ${baseName(file.name) || "upload"} is larger than 64 MiB; not staged`);
      continue;
    }
    const digest = createHash("sha256").update(file.content).digest("hex");
    const reused = state.byDigest.get(digest);
    if (reused !== undefined) {
      staged.push(reused);
      continue;
    }
    let name = baseName(file.name);
    if (name === "") {
      state.uploads += 1;
      name = state.uploads === 1 ? "upload" : `upload_${state.uploads}`;
    }
    const ext = path.posix.extname(name);
    const stem = name.slice(0, name.length - ext.length);
    const taken = (candidate: string) => state.names.has(candidate) || existsSync(path.join(dir, candidate));
    for (let n = 2; taken(name); n++) name = `${stem}_${n}${ext}`;
    try {
      await writeFileNoFollow(path.join(dir, name), file.content);
    } catch (error) {
      warnings.push(`user file input: ${name} could not be staged: ${(error as Error).message}`);
      continue;
    }
    const rel = `work/inputs/${name}`;
    state.names.add(name);
    state.byDigest.set(digest, rel);
    staged.push(rel);
  }
  return { staged, warnings };
}
