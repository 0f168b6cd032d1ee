/**
 * Collects a run's output files from the workspace by glob (`**` supported; `$OUTPUT_DIR/…` means
 * `out/…`), with limits on count, per-file and total bytes, MIME sniffing, optional inlining of text
 * (redacted) and optional saving as versioned artifacts.
 *
 * The workspace is writable by the sandboxed script, possibly while this runs (a parallel run), so the
 * host never resolves a path through the kernel here: every directory is entered by descriptor with
 * `O_NOFOLLOW` and symlinks are followed by their text only while they stay inside the workspace
 * (`dir-handle.ts`). A symlink that leaves the workspace is dropped, and nothing behind it is listed or
 * read; a component swapped during collection makes that file fail closed (skipped), never an error.
 */
import path from "node:path";
import type { ArtifactRef, ArtifactStore } from "./artifact-store.js";
import { isInside, normalizeWorkspacePath } from "./confine.js";
import {
  BeneathError,
  type DirHandle,
  listDir,
  lstatIn,
  openDirHandle,
  openSubdir,
  readFileIn,
} from "./dir-handle.js";
import type { OutputSpec } from "./output-spec.js";
import { NO_REDACTION, type Redactor } from "./redact.js";
import { openResolvedDir, resolveBeneath } from "./resolve-beneath.js";
import { sniffMime } from "./sniff-mime.js";

export type { OutputSpec } from "./output-spec.js";

/** Output defaults. */
export const OUTPUT_DEFAULTS = {
  maxFiles: 100,
  maxFileBytes: 4 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
};

/** Directory entries visited per collection before giving up (keeps a huge tree cheap). */
const MAX_VISITED = 20_000;

/** One collected file. */
export interface OutputFile {
  /** Workspace-relative path. */
  name: string;
  size: number;
  mimeType: string;
  /** `workspace://<name>`. */
  ref: string;
  /** True when only the first `max_file_bytes` were read. */
  truncated: boolean;
  /** Redacted text, only when `inline` was asked and the file is text. */
  content?: string;
  artifact?: ArtifactRef;
}

/** What a collection returned. */
export interface CollectedOutputs {
  files: OutputFile[];
  /** `max_files`, `max_file_bytes`, `max_total_bytes` when hit. */
  limitsHit: string[];
  warnings: string[];
}

/** Options of `collectOutputs`. */
export interface CollectOptions {
  /** Real path of the workspace root. */
  root: string;
  /** Workspace-relative directory of the current run (for `$RUN_DIR`). */
  runRel?: string;
  artifactStore?: ArtifactStore;
  redactor?: Redactor;
}

async function walk(dir: DirHandle, baseRel: string, budget: { left: number }, out: string[]): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await listDir(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (--budget.left < 0) return;
    const rel = baseRel === "" ? entry.name : `${baseRel}/${entry.name}`;
    if (entry.isDirectory()) {
      // Entered by descriptor without following: a directory swapped for a symlink is skipped, not walked.
      const sub = await openSubdir(dir, entry.name).catch(() => undefined);
      if (sub === undefined) continue;
      try {
        await walk(sub, rel, budget, out);
      } finally {
        await sub.close();
      }
    } else if (entry.isFile() || entry.isSymbolicLink()) out.push(rel);
  }
}

/** Normalises one glob to workspace-relative form, or returns an error message. */
function normalizeGlob(glob: string, root: string, runRel: string): string | { error: string } {
  let g = normalizeWorkspacePath(glob, runRel);
  if (path.isAbsolute(g)) {
    if (!isInside(root, g)) return { error: `output glob '${glob}' is outside the workspace` };
    g = path.relative(root, g);
  }
  g = g.replace(/^(\.\/)+/, "");
  if (g.split("/").includes("..")) return { error: `output glob '${glob}' must not contain '..'` };
  return g;
}

/** Collects the files matching `spec.globs` under `options.root`. Never throws: problems become warnings. */
export async function collectOutputs(spec: OutputSpec, options: CollectOptions): Promise<CollectedOutputs> {
  let root: DirHandle;
  try {
    root = await openDirHandle(options.root);
  } catch (error) {
    return {
      files: [],
      limitsHit: [],
      warnings: [`outputs were not collected: ${(error as Error).message}`],
    };
  }
  try {
    return await collectFrom(root, spec, options);
  } finally {
    await root.close();
  }
}

/** Why a candidate was skipped, as a warning naming only its workspace-relative path (or nothing). */
function skipReason(rel: string, error: unknown): string | undefined {
  if (error instanceof BeneathError) {
    if (error.reason === "outside") return `dropped ${rel}: it is a symlink that leaves the workspace`;
    if (error.reason === "missing") return undefined; // broken link, or removed meanwhile
    return `skipped ${rel}: ${error.message}`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  return `skipped ${rel}: ${code ?? "unreadable"}`;
}

async function collectFrom(
  root: DirHandle,
  spec: OutputSpec,
  options: CollectOptions,
): Promise<CollectedOutputs> {
  const rootPath = options.root;
  const redactor = options.redactor ?? NO_REDACTION;
  const limitsHit = new Set<string>();
  const warnings: string[] = [];
  const maxFiles = spec.max_files ?? OUTPUT_DEFAULTS.maxFiles;
  const maxFileBytes = spec.max_file_bytes ?? OUTPUT_DEFAULTS.maxFileBytes;
  const maxTotal = spec.max_total_bytes ?? OUTPUT_DEFAULTS.maxTotalBytes;
  // Loaded here, not at start-up: most runs collect nothing.
  const { default: picomatch } = await import("picomatch");

  const candidates = new Set<string>();
  for (const raw of spec.globs) {
    const glob = normalizeGlob(raw, rootPath, options.runRel ?? "runs");
    if (typeof glob !== "string") {
      warnings.push(glob.error);
      continue;
    }
    const { base } = picomatch.scan(glob);
    const matcher = picomatch(glob, { dot: true });
    const found: string[] = [];
    const budget = { left: MAX_VISITED };
    try {
      const resolved = await resolveBeneath(root, rootPath, base);
      try {
        const stat = resolved.name === "" ? undefined : await lstatIn(resolved.parent, resolved.name);
        if (resolved.name === "" || stat?.isDirectory() === true) {
          const dir = await openResolvedDir(resolved);
          try {
            await walk(dir, base, budget, found);
          } finally {
            await dir.close();
          }
        } else if (stat !== undefined) found.push(base);
      } finally {
        await resolved.parent.close();
      }
    } catch (error) {
      // The error names the component that failed (e.g. `out/r is a symlink that leaves the workspace`).
      if (!(error instanceof BeneathError) || error.reason !== "missing")
        warnings.push(
          `output glob '${raw}': ${error instanceof BeneathError ? error.message : skipReason(base, error)}`,
        );
      continue;
    }
    if (budget.left < 0)
      warnings.push(`output glob '${raw}' visited over ${MAX_VISITED} entries; results may be incomplete`);
    for (const rel of found) if (matcher(rel)) candidates.add(rel);
  }

  const seen = new Set<string>();
  const matched: Array<{ rel: string; size: number }> = [];
  for (const rel of [...candidates].sort()) {
    try {
      const resolved = await resolveBeneath(root, rootPath, rel);
      try {
        const stat = await lstatIn(resolved.parent, resolved.name);
        if (stat === undefined || !stat.isFile()) continue;
        const key = `${stat.dev}:${stat.ino}`;
        if (seen.has(key)) continue;
        seen.add(key);
        matched.push({ rel, size: stat.size });
      } finally {
        await resolved.parent.close();
      }
    } catch (error) {
      const reason = skipReason(rel, error);
      if (reason !== undefined) warnings.push(reason);
    }
  }
  if (matched.length > maxFiles) {
    limitsHit.add("max_files");
    warnings.push(`${matched.length} files matched; only the first ${maxFiles} (max_files) are returned`);
  }

  const files: OutputFile[] = [];
  let total = 0;
  for (const { rel, size: listed } of matched.slice(0, maxFiles)) {
    const want = Math.min(listed, maxFileBytes);
    if (total + want > maxTotal) {
      limitsHit.add("max_total_bytes");
      warnings.push(`stopped at ${rel}: collecting it would exceed max_total_bytes (${maxTotal})`);
      break;
    }
    let read: Awaited<ReturnType<typeof readFileIn>>;
    try {
      const resolved = await resolveBeneath(root, rootPath, rel);
      try {
        read = await readFileIn(resolved.parent, resolved.name, Math.min(maxFileBytes, maxTotal - total));
      } finally {
        await resolved.parent.close();
      }
    } catch (error) {
      const reason = skipReason(rel, error);
      if (reason !== undefined) warnings.push(reason);
      continue;
    }
    if (read === undefined) continue; // replaced by something that is not a regular file meanwhile
    const { bytes, size } = read;
    total += bytes.length;
    const truncated = size > bytes.length;
    if (truncated) limitsHit.add("max_file_bytes");
    const sniffed = sniffMime(bytes, rel, truncated);
    const file: OutputFile = {
      name: rel,
      size,
      mimeType: sniffed.mimeType,
      ref: `workspace://${rel}`,
      truncated,
    };
    if (spec.inline === true && sniffed.text) {
      const text = new TextDecoder().decode(bytes, { stream: truncated });
      file.content = truncated ? redactor.redactTail(redactor.redact(text)) : redactor.redact(text);
    }
    if (spec.save === true) {
      if (options.artifactStore === undefined)
        warnings.push("save requested but no artifact store is configured");
      else if (truncated) warnings.push(`not saved ${rel}: larger than max_file_bytes (${maxFileBytes})`);
      else {
        try {
          file.artifact = await options.artifactStore.save(
            `${spec.name_template ?? ""}${rel}`,
            bytes,
            sniffed.mimeType,
          );
        } catch (error) {
          warnings.push(`not saved ${rel}: ${(error as Error).message}`);
        }
      }
    }
    files.push(file);
  }
  return { files, limitsHit: [...limitsHit], warnings: [...new Set(warnings)] };
}
