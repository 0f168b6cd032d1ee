/**
 * `skill_run` semantics for the tools layer: check the skill (and that it is loaded when
 * required), apply the command policy, stage the skill and inputs, run through the executor with the
 * cleared environment plus the skill's secrets, collect outputs, and redact secrets from everything
 * returned. Every expected failure is a `refused` result with a message for the model.
 */
import path from "node:path";
import type { SkillRecord } from "../catalog/types.js";
import { lastOutputLine } from "../util/terminal-text.js";
import type { ArtifactStore } from "./artifact-store.js";
import {
  type CollectedOutputs,
  collectOutputs,
  type OutputFile,
  type OutputSpec,
} from "./collect-outputs.js";
import { type CommandPolicy, checkCommandPolicy } from "./command-policy.js";
import { DEFAULT_DISK_QUOTA_BYTES, watchDiskQuota } from "./disk-quota.js";
import {
  DEFAULT_EXEC_PATH,
  type ExecMount,
  type ExecRequest,
  type ExecResult,
  type Executor,
} from "./executor.js";
import { DEFAULT_LIMITS, type ExecLimits } from "./limits.js";
import { createRedactor, type Redactor } from "./redact.js";
import { type InputSpec, type StagedInput, stageInputs } from "./stage-inputs.js";
import type { Workspace } from "./workspace.js";

/**
 * What to run (the `skill_run` tool's input, already validated against its schema in `tools/`). The
 * command runs in the skill's staged directory.
 */
export interface SkillRunRequest {
  /** Name of the skill whose directory the command runs in. */
  name: string;
  /** A shell command string, or an argv array run without a shell. */
  command: string | string[];
  /** Working directory relative to the skill root. Default: the skill root. */
  cwd?: string | undefined;
  /** Extra environment variables (loader variables such as `LD_PRELOAD` are ignored with a warning). */
  env?: Record<string, string> | undefined;
  stdin?: string | undefined;
  /** Seconds before the command is killed. Default `defaultTimeoutSeconds`. */
  timeout?: number | undefined;
  /** Files staged into the workspace before running. */
  inputs?: InputSpec[] | undefined;
  /** Output files collected after running. */
  outputs?: OutputSpec | undefined;
  /** An interactive run (`skill_exec`, see `ExecRequest.interactive`); `stdin` is then not used. */
  interactive?: ExecRequest["interactive"];
}

/** Default timeout of a skill run, in seconds. */
export const DEFAULT_RUN_TIMEOUT_SECONDS = 300;

/** Environment names the model may not set (they change how programs are loaded). */
const BLOCKED_ENV = /^(LD_.*|DYLD_.*|OPENSSL_CONF|BASH_ENV|ENV|BASH_FUNC_.*)$/;

/** What `runSkillCommand` needs from its caller. */
export interface SkillRunContext {
  workspace: Workspace;
  executor: Executor;
  /** Looks up a skill by name (e.g. `catalog.get`). */
  getSkill: (name: string) => SkillRecord | undefined;
  /** Names close to an unknown one (e.g. `catalog.closest`). */
  closest?: (name: string) => string[];
  /** Whether the skill is loaded in the session; used with `requireLoaded`. */
  isLoaded?: (name: string) => boolean;
  /** Refuse runs of skills that are not loaded. Default false. */
  requireLoaded?: boolean;
  /** Name of the tool that loads a skill, for the `requireLoaded` refusal. Default `skill_load`. */
  loadToolName?: string;
  /** Per-skill environment (secrets), e.g. `loadSkillEnvConfig().skills`. */
  skillEnv?: Record<string, Record<string, string>>;
  policy?: CommandPolicy;
  /** Host directories `host://` inputs may come from. Default none. */
  hostDirs?: string[];
  artifactStore?: ArtifactStore;
  /** Default `DEFAULT_RUN_TIMEOUT_SECONDS` (300). */
  defaultTimeoutSeconds?: number;
  /** Upper bound on a requested timeout. Default 3600. */
  maxTimeoutSeconds?: number;
  /** Bytes of stdout and of stderr returned. Default 16 KiB each. */
  maxOutputBytes?: number;
  limits?: ExecLimits;
  /**
   * Bytes one run may add to the workspace (outputs and work files). Past it the run is stopped and the
   * result says so (`limitsHit: ["disk_quota"]`); also the largest file a run may write and the size of
   * the sandbox's `/tmp`. Default `DEFAULT_DISK_QUOTA_BYTES` (1 GiB). See `watchDiskQuota` for what is
   * enforced how.
   */
  diskQuotaBytes?: number;
  abortSignal?: AbortSignal;
  /**
   * Receives the command's latest output line while it runs (redacted like the result, at most one call
   * per chunk of output), for a progress display. Never seen by the model.
   */
  onOutputLine?: (line: string) => void;
}

/** A refused run: nothing was executed. */
export interface SkillRunRefused {
  status: "refused";
  name: string;
  message: string;
}

/** A run that executed (whatever its exit code): the executor's result plus what the run staged and collected. */
export interface SkillRunCompleted
  extends Pick<
    ExecResult,
    "exitCode" | "stdout" | "stderr" | "timedOut" | "aborted" | "durationMs" | "truncated" | "executor"
  > {
  status: "ran";
  name: string;
  outputFiles: OutputFile[];
  limitsHit: string[];
  stagedInputs: StagedInput[];
  warnings: string[];
  /** Workspace-relative run directory (`runs/run_…`). */
  runDir: string;
}

/** Result of `runSkillCommand`. */
export type SkillRunResult = SkillRunRefused | SkillRunCompleted;

const linkedMounts = new WeakMap<Workspace, Set<string>>();
const preparing = new WeakMap<Workspace, Promise<unknown>>();

/**
 * Runs `fn` after every earlier preparation in the same workspace settled: parallel runs stage their
 * inputs and take their run folders one after the other, then execute at the same time.
 */
function serialised<T>(workspace: Workspace, fn: () => Promise<T>): Promise<T> {
  const next = (preparing.get(workspace) ?? Promise.resolve()).then(fn, fn);
  preparing.set(
    workspace,
    next.catch(() => undefined),
  );
  return next;
}

function bytes(n: number): string {
  return n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${n} bytes`;
}

function refuse(name: string, message: string): SkillRunRefused {
  return { status: "refused", name, message };
}

/**
/**
 * Runs a command for a skill. Never throws: expected failures are `refused` results, and an unexpected
 * host-side failure (e.g. the workspace changed under it) is refused with its message too. The request
 * is not validated again: callers pass what the `skill_run` schema accepted (or build it in code).
 */
export async function runSkillCommand(
  input: SkillRunRequest,
  context: SkillRunContext,
): Promise<SkillRunResult> {
  try {
    return await runChecked(input, context);
  } catch (error) {
    const redactor = createRedactor(Object.values(context.skillEnv?.[input.name] ?? {}));
    return refuse(
      input.name,
      redactor.redact(
        `skill_run failed on the host: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
}

async function runChecked(input: SkillRunRequest, context: SkillRunContext): Promise<SkillRunResult> {
  const { workspace } = context;
  const record = context.getSkill(input.name);
  if (record === undefined) {
    const closest = context.closest?.(input.name) ?? [];
    const hint = closest.length > 0 ? ` Did you mean: ${closest.join(", ")}?` : "";
    return refuse(input.name, `Skill '${input.name}' not found.${hint}`);
  }
  if (context.requireLoaded === true && context.isLoaded?.(input.name) !== true) {
    return refuse(
      input.name,
      `skill_run requires ${context.loadToolName ?? "skill_load"} first for "${input.name}". Load the skill, read its instructions, then run again.`,
    );
  }
  const decision = checkCommandPolicy(input.command, context.policy);
  if (!decision.ok) return refuse(input.name, decision.message);

  const secrets = context.skillEnv?.[input.name] ?? {};
  const redactor = createRedactor(Object.values(secrets));
  let staged: Awaited<ReturnType<Workspace["stageSkill"]>>;
  let repairs: string[];
  try {
    repairs = await serialised(workspace, () => workspace.repair());
    // Executors that mount get the real folder read-only; `local` ignores mounts, so it gets a copy.
    staged = await workspace.stageSkill(record, { copy: context.executor.kind === "local" });
  } catch (error) {
    return refuse(
      input.name,
      redactor.redact(`Cannot run skill '${input.name}': ${(error as Error).message}`),
    );
  }
  const cwd = await workspace.resolveCwd(staged, input.cwd);
  if ("error" in cwd) return refuse(input.name, cwd.error);

  const quota = context.diskQuotaBytes ?? DEFAULT_DISK_QUOTA_BYTES;
  const stagedInputs: StagedInput[] = [];
  const prepared = await serialised(workspace, async () => {
    if (input.inputs !== undefined && input.inputs.length > 0) {
      const result = await stageInputs(input.inputs, {
        root: workspace.root,
        maxBytes: quota,
        ...(context.artifactStore === undefined ? {} : { artifactStore: context.artifactStore }),
        ...(context.hostDirs === undefined ? {} : { hostDirs: context.hostDirs }),
        resolveSkill: context.getSkill,
      });
      if (result.errors.length > 0) return { errors: result.errors };
      stagedInputs.push(...result.staged);
    }
    return { runDir: await workspace.createRunDir() };
  });
  if ("errors" in prepared) {
    return refuse(
      input.name,
      redactor.redact(`Inputs could not be staged; nothing was run:\n- ${prepared.errors.join("\n- ")}`),
    );
  }
  const { runDir } = prepared;
  const links = linkedMounts.get(workspace) ?? new Set<string>();
  linkedMounts.set(workspace, links);
  for (const s of stagedInputs) if (s.linkedPath !== undefined) links.add(s.linkedPath);

  const warnings: string[] = [...repairs];
  const callerEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.env ?? {})) {
    if (BLOCKED_ENV.test(key) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      warnings.push(`env ${key} ignored (not allowed)`);
    else callerEnv[key] = value;
  }
  const env: Record<string, string> = {
    PATH: DEFAULT_EXEC_PATH,
    LANG: "C.UTF-8",
    ...(context.executor.kind === "local" ? { TMPDIR: workspace.tmpDir } : {}),
    ...workspace.runEnv(staged, runDir),
    ...secrets,
    ...callerEnv,
  };
  const mounts: ExecMount[] = [
    ...workspace.mounts(staged),
    ...[...links].map((source) => ({ source, readOnly: true })),
  ];
  const timeoutSeconds = Math.min(
    input.timeout ?? context.defaultTimeoutSeconds ?? DEFAULT_RUN_TIMEOUT_SECONDS,
    context.maxTimeoutSeconds ?? 3600,
  );
  const limits: ExecLimits = context.limits ?? DEFAULT_LIMITS;
  const overQuota = new AbortController();
  const abortSignal =
    context.abortSignal === undefined
      ? overQuota.signal
      : AbortSignal.any([context.abortSignal, overQuota.signal]);
  const watch = await watchDiskQuota({
    root: workspace.root,
    quotaBytes: quota,
    onExceeded: () => overQuota.abort(),
  });
  const result = await context.executor.run({
    command: input.command,
    cwd: cwd.cwd,
    env,
    timeoutMs: timeoutSeconds * 1000,
    mounts,
    redactor,
    abortSignal,
    limits: {
      ...limits,
      fileSizeBytes: Math.min(limits.fileSizeBytes ?? DEFAULT_LIMITS.fileSizeBytes, quota),
      tmpBytes: Math.min(limits.tmpBytes ?? quota, quota),
    },
    ...(input.stdin === undefined ? {} : { stdin: input.stdin }),
    ...(context.maxOutputBytes === undefined ? {} : { maxOutputBytes: context.maxOutputBytes }),
    ...(input.interactive === undefined ? {} : { interactive: input.interactive }),
    ...(context.onOutputLine === undefined ? {} : { onOutput: outputLines(redactor, context.onOutputLine) }),
  });
  const usage = await watch.stop();
  const limitsHit: string[] = [];
  if (usage.exceeded) {
    limitsHit.push("disk_quota");
    warnings.push(
      `${overQuota.signal.aborted ? "the run was stopped: it" : "the run"} added ${bytes(usage.addedBytes)} to the ` +
        `workspace, more than the disk quota of ${bytes(quota)} per run. Delete files you no longer need ` +
        "(work/, out/, runs/) and write less, or in smaller steps.",
    );
  }

  const runRel = path.relative(workspace.root, runDir);
  let collected: CollectedOutputs = { files: [], limitsHit: [], warnings: [] };
  if (input.outputs !== undefined) {
    collected = await collectOutputs(input.outputs, {
      root: workspace.root,
      runRel,
      redactor,
      ...(context.artifactStore === undefined ? {} : { artifactStore: context.artifactStore }),
    });
  }
  const readOnlyHit = staged.copied ? /read-only file system|permission denied/i : /read-only file system/i;
  if (result.exitCode !== 0 && readOnlyHit.test(result.stderr)) {
    warnings.push(
      "the skill folder is read-only: write files to $OUTPUT_DIR (collected as out/…) or $WORK_DIR; " +
        "staged inputs are in $WORK_DIR/inputs",
    );
  }
  return {
    status: "ran",
    name: input.name,
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.timedOut,
    aborted: result.aborted && context.abortSignal?.aborted === true,
    durationMs: result.durationMs,
    truncated: result.truncated,
    outputFiles: collected.files.map((f) => ({
      ...f,
      name: redactor.redact(f.name),
      ref: redactor.redact(f.ref),
    })),
    limitsHit: [...limitsHit, ...collected.limitsHit],
    stagedInputs,
    warnings: [...result.warnings, ...warnings, ...collected.warnings].map((w) => redactor.redact(w)),
    executor: result.executor,
    runDir: runRel,
  };
}

/** Most bytes of recent output kept to find the latest line (redacted as a whole, so a split secret is too). */
const OUTPUT_TAIL = 4096;

/** An output observer that hands `onLine` the latest non-empty line of the recent output, redacted. */
function outputLines(redactor: Redactor, onLine: (line: string) => void): (chunk: Buffer) => void {
  let tail = "";
  return (chunk) => {
    tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL);
    const line = lastOutputLine(redactor.redact(tail));
    if (line !== undefined) onLine(line);
  };
}
