/**
 * Stages run inputs into the workspace: `artifact://name[@version]`, `host://abs/path` (only under
 * configured host directories), `workspace://rel`, `skill://name/rel`; mode `copy` (default) or
 * `link`; destination default `work/inputs/<basename>`. Every source and destination is confined.
 * The workspace is writable by scripts, so everything in it (destinations, `workspace://` sources) is
 * reached by descriptor without following symlinks the host did not resolve itself (`dir-handle.ts`).
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import type { SkillRecord } from "../catalog/types.js";
import type { ArtifactStore } from "./artifact-store.js";
import { confinedRealpath, isInside, normalizeWorkspacePath } from "./confine.js";
import {
  BeneathError,
  copyIn,
  type DirHandle,
  lstatIn,
  openDirHandle,
  openSubpath,
  removeIn,
  symlinkIn,
  writeFileIn,
} from "./dir-handle.js";
import type { InputSpec } from "./input-spec.js";
import { type Resolved, resolveBeneath } from "./resolve-beneath.js";

export type { InputSpec } from "./input-spec.js";

/** A staged input. */
export interface StagedInput {
  from: string;
  /** Workspace-relative destination. */
  to: string;
  mode: "copy" | "link";
  /** Artifact version used, for `artifact://`. */
  version?: number;
  /** Real host path a `link` points to (the sandbox mounts it read-only). */
  linkedPath?: string;
}

/** Options of `stageInputs`. */
export interface StageInputsOptions {
  /** Real path of the workspace root. */
  root: string;
  artifactStore?: ArtifactStore;
  /** Host directories `host://` inputs may come from. Default: none (every `host://` is refused). */
  hostDirs?: string[];
  /** Looks up a skill for `skill://name/rel`. */
  resolveSkill?: (name: string) => Pick<SkillRecord, "name" | "dir"> | undefined;
  /** Bytes all inputs of the call may copy together. Default `DEFAULT_MAX_STAGE_BYTES` (1 GiB). */
  maxBytes?: number;
}

/** Staged inputs and per-input refusals (messages for the model). */
export interface StagedInputs {
  staged: StagedInput[];
  errors: string[];
}

/** Default cap on the bytes one `stageInputs` call copies: 1 GiB. */
export const DEFAULT_MAX_STAGE_BYTES = 1024 ** 3;

/** Where an input goes: its workspace-relative folder and name, or an error for the model. */
function destination(
  root: string,
  spec: InputSpec,
  fallbackName: string,
): { dir: string; name: string } | { error: string } {
  let to =
    spec.to === undefined || spec.to === "" ? `work/inputs/${fallbackName}` : normalizeWorkspacePath(spec.to);
  if (to.startsWith("inputs/") || to === "inputs") to = `work/${to}`;
  if (path.isAbsolute(to)) to = path.relative(root, to);
  const target = path.resolve(root, to);
  const rel = path.relative(root, target);
  if (rel === "" || !isInside(root, target) || rel.split(path.sep)[0] === "skills") {
    return { error: `input destination '${spec.to}' must be inside the workspace (work/, out/ or runs/)` };
  }
  return { dir: path.dirname(rel) === "." ? "" : path.dirname(rel), name: path.basename(rel) };
}

/**
 * Puts an input at `to` (workspace-relative) by descriptor: the destination's folders are created or
 * entered without following symlinks (a planted one fails the input), then `write` fills the name.
 */
async function placeAt(
  ws: DirHandle,
  spec: InputSpec,
  to: { dir: string; name: string },
  write: (parent: DirHandle, name: string) => Promise<void>,
): Promise<{ error: string } | undefined> {
  let parent: DirHandle;
  try {
    parent = await openSubpath(ws, to.dir, { create: true });
  } catch (error) {
    if (error instanceof BeneathError)
      return {
        error: `input destination '${spec.to ?? `${to.dir}/${to.name}`}' is not usable: ${error.message}`,
      };
    throw error;
  }
  try {
    await removeIn(parent, to.name);
    await write(parent, to.name);
  } finally {
    await parent.close();
  }
  return undefined;
}

/** Copies the trusted host path `source` (already confined) into `parent/name`, never following links inside. */
async function copyHostPath(
  source: string,
  parent: DirHandle,
  name: string,
  budget: { bytes: number },
): Promise<void> {
  const from = await openDirHandle(path.dirname(source));
  try {
    await copyIn(from, path.basename(source), parent, name, budget);
  } finally {
    await from.close();
  }
}

async function stageOne(
  spec: InputSpec,
  options: StageInputsOptions,
  ws: DirHandle,
  budget: { bytes: number },
): Promise<StagedInput | { error: string }> {
  const mode = spec.mode ?? "copy";
  const { root } = options;
  const scheme = /^([a-z]+):\/\/(.*)$/.exec(spec.from);
  if (scheme === null)
    return { error: `unsupported input '${spec.from}': use artifact://, host://, workspace:// or skill://` };
  const [, kind, rest = ""] = scheme;
  if (kind === "artifact") {
    const m = /^(.+?)(?:@v?(\d+))?$/.exec(rest);
    const name = m?.[1] ?? rest;
    if (options.artifactStore === undefined)
      return { error: `cannot stage ${spec.from}: no artifact store is configured` };
    const artifact = await options.artifactStore.get(name, m?.[2] === undefined ? undefined : Number(m[2]));
    if (artifact === undefined) return { error: `artifact '${rest}' not found` };
    const to = destination(root, spec, path.basename(name));
    if ("error" in to) return to;
    budget.bytes -= artifact.bytes.length;
    if (budget.bytes < 0) return { error: `artifact '${rest}' is larger than the staging limit` };
    const failed = await placeAt(ws, spec, to, (parent, n) => writeFileIn(parent, n, artifact.bytes));
    if (failed !== undefined) return failed;
    return { from: spec.from, to: path.posix.join(to.dir, to.name), mode: "copy", version: artifact.version };
  }
  if (kind === "workspace") {
    // The workspace is writable by scripts: resolved by descriptor, symlinks followed only inside it.
    let resolved: Resolved;
    try {
      resolved = await resolveBeneath(ws, root, normalizeWorkspacePath(rest));
    } catch (error) {
      if (error instanceof BeneathError)
        return { error: `workspace input '${rest}' is missing or outside the workspace (${error.message})` };
      throw error;
    }
    try {
      if (resolved.name === "" || (await lstatIn(resolved.parent, resolved.name)) === undefined)
        return { error: `workspace input '${rest}' is missing or is the whole workspace` };
      const to = destination(root, spec, resolved.name);
      if ("error" in to) return to;
      const toRel = path.posix.join(to.dir, to.name);
      if (toRel === resolved.rel || toRel.startsWith(`${resolved.rel}/`))
        return { error: `input '${spec.from}' cannot be staged into itself` };
      const failed = await placeAt(ws, spec, to, (parent, n) =>
        mode === "link"
          ? symlinkIn(parent, n, path.join(root, resolved.rel))
          : copyIn(resolved.parent, resolved.name, parent, n, budget),
      );
      if (failed !== undefined) return failed;
      return { from: spec.from, to: toRel, mode };
    } finally {
      await resolved.parent.close();
    }
  }
  let source: string | undefined;
  if (kind === "host") {
    const hostPath = rest.startsWith("/") ? rest : `/${rest}`;
    const roots = await Promise.all((options.hostDirs ?? []).map((d) => realpath(d).catch(() => d)));
    if (roots.length === 0)
      return { error: `host inputs are disabled: '${spec.from}' refused (no host directories are allowed)` };
    source = await confinedRealpath(hostPath, roots);
    if (source === undefined) {
      return {
        error: `host input '${hostPath}' is missing or outside the allowed host directories: ${roots.join(", ")}`,
      };
    }
  } else if (kind === "skill") {
    const [skillName = "", ...parts] = rest.split("/");
    const skill = options.resolveSkill?.(skillName);
    if (skill === undefined || skill.dir.startsWith("memory:"))
      return { error: `skill '${skillName}' not found for input '${spec.from}'` };
    const skillRoot = await realpath(skill.dir);
    source = await confinedRealpath(path.join(skillRoot, ...parts), [skillRoot]);
    if (source === undefined)
      return { error: `skill file '${parts.join("/")}' is missing or outside skill '${skillName}'` };
  } else {
    return {
      error: `unsupported input scheme '${kind}://': use artifact://, host://, workspace:// or skill://`,
    };
  }
  const from = source;
  const to = destination(root, spec, path.basename(from));
  if ("error" in to) return to;
  const target = path.join(root, to.dir, to.name);
  if (target === from || isInside(from, target))
    return { error: `input '${spec.from}' cannot be staged into itself` };
  const failed = await placeAt(ws, spec, to, (parent, n) =>
    mode === "link" ? symlinkIn(parent, n, from) : copyHostPath(from, parent, n, budget),
  );
  if (failed !== undefined) return failed;
  const staged: StagedInput = { from: spec.from, to: path.posix.join(to.dir, to.name), mode };
  if (mode === "link" && !isInside(root, from)) staged.linkedPath = from;
  return staged;
}

/** Stages every input; a failing input is reported in `errors` and the others still go in. */
export async function stageInputs(inputs: InputSpec[], options: StageInputsOptions): Promise<StagedInputs> {
  const staged: StagedInput[] = [];
  const errors: string[] = [];
  let ws: DirHandle;
  try {
    ws = await openDirHandle(options.root);
  } catch (error) {
    return { staged, errors: [`inputs could not be staged: ${(error as Error).message}`] };
  }
  const budget = { bytes: options.maxBytes ?? DEFAULT_MAX_STAGE_BYTES };
  try {
    for (const spec of inputs) await stageEach(spec);
  } finally {
    await ws.close();
  }
  return { staged, errors };

  async function stageEach(spec: InputSpec): Promise<void> {
    try {
      const result = await stageOne(spec, options, ws, budget);
      if ("error" in result) errors.push(result.error);
      else staged.push(result);
    } catch (error) {
      errors.push(
        `could not stage '${spec.from}': ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
