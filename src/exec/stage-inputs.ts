/**
 * Stages run inputs into the workspace: `artifact://name[@version]`, `host://abs/path` (only under
 * configured host directories), `workspace://rel`, `skill://name/rel`; mode `copy` (default) or
 * `link`; destination default `work/inputs/<basename>`. Every source and destination is confined.
 */
import { cp, mkdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { SkillRecord } from "../catalog/types.js";
import type { ArtifactStore } from "./artifact-store.js";
import { confinedRealpath, isInside, normalizeWorkspacePath } from "./confine.js";

/** One input of a skill run. */
export const InputSpec = z.object({
  from: z
    .string()
    .min(1)
    .describe("artifact://name[@version], host:///abs/path, workspace://rel or skill://name/rel"),
  to: z.string().optional().describe("Workspace-relative destination. Default work/inputs/<basename>."),
  mode: z.enum(["copy", "link"]).optional().describe("Default copy."),
});
export type InputSpec = z.infer<typeof InputSpec>;

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
}

/** Staged inputs and per-input refusals (messages for the model). */
export interface StagedInputs {
  staged: StagedInput[];
  errors: string[];
}

async function destination(
  root: string,
  spec: InputSpec,
  fallbackName: string,
): Promise<string | { error: string }> {
  let to =
    spec.to === undefined || spec.to === "" ? `work/inputs/${fallbackName}` : normalizeWorkspacePath(spec.to);
  if (to.startsWith("inputs/") || to === "inputs") to = `work/${to}`;
  if (path.isAbsolute(to)) to = path.relative(root, to);
  const target = path.resolve(root, to);
  const rel = path.relative(root, target);
  if (rel === "" || !isInside(root, target) || rel.split(path.sep)[0] === "skills") {
    return { error: `input destination '${spec.to}' must be inside the workspace (work/, out/ or runs/)` };
  }
  await mkdir(path.dirname(target), { recursive: true });
  const parent = await realpath(path.dirname(target));
  if (!isInside(root, parent))
    return { error: `input destination '${spec.to}' leaves the workspace through a symlink` };
  return target;
}

async function place(source: string, target: string, mode: "copy" | "link"): Promise<void> {
  await rm(target, { recursive: true, force: true });
  if (mode === "link") await symlink(source, target);
  else await cp(source, target, { recursive: true, dereference: false, verbatimSymlinks: true });
}

async function stageOne(
  spec: InputSpec,
  options: StageInputsOptions,
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
    const target = await destination(root, spec, path.basename(name));
    if (typeof target !== "string") return target;
    await rm(target, { recursive: true, force: true });
    await writeFile(target, artifact.bytes);
    return { from: spec.from, to: path.relative(root, target), mode: "copy", version: artifact.version };
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
  } else if (kind === "workspace") {
    source = await confinedRealpath(path.resolve(root, normalizeWorkspacePath(rest)), [root]);
    if (source === undefined)
      return { error: `workspace input '${rest}' is missing or outside the workspace` };
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
  const target = await destination(root, spec, path.basename(source));
  if (typeof target !== "string") return target;
  if (target === source || isInside(source, target))
    return { error: `input '${spec.from}' cannot be staged into itself` };
  await place(source, target, mode);
  const staged: StagedInput = { from: spec.from, to: path.relative(root, target), mode };
  if (mode === "link" && !isInside(root, source)) staged.linkedPath = source;
  return staged;
}

/** Stages every input; a failing input is reported in `errors` and the others still go in. */
export async function stageInputs(inputs: InputSpec[], options: StageInputsOptions): Promise<StagedInputs> {
  const staged: StagedInput[] = [];
  const errors: string[] = [];
  for (const spec of inputs) {
    try {
      const result = await stageOne(spec, options);
      if ("error" in result) errors.push(result.error);
      else staged.push(result);
    } catch (error) {
      errors.push(
        `could not stage '${spec.from}': ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return { staged, errors };
}
