/**
 * `skill_run` semantics for the tools layer, in four steps over a run's configuration
 * (`{ environment, policy, lookup }`, see `run-config.ts`): authorise (the skill, its loaded state, the
 * command policy), stage (the skill and inputs), execute (the executor with the cleared environment plus
 * the skill's secrets) and collect (outputs), with secrets redacted from everything returned. Every
 * expected failure is a `refused` result with a message for the model.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { skillSpanAttributes } from "../catalog/skill-span-attributes.js";
import type { SkillRecord } from "../catalog/types.js";
import { SkillChangedError } from "../errors/skill-changed-error.js";
import { lastOutputLine } from "../util/terminal-text.js";
import { failSpan, inSpan } from "../util/trace-span.js";
import {
  type CollectedOutputs,
  collectOutputs,
  type OutputFile,
  type OutputSpec,
} from "./collect-outputs.js";
import { checkCommandPolicy } from "./command-policy.js";
import { DEFAULT_DISK_QUOTA_BYTES, watchDiskQuota } from "./disk-quota.js";
import { DEFAULT_EXEC_PATH, type ExecMount, type ExecRequest, type ExecResult } from "./executor.js";
import { DEFAULT_LIMITS, type ExecLimits } from "./limits.js";
import { createRedactor, type Redactor } from "./redact.js";
import {
  type RunEnvironment,
  type SkillRunConfig,
  type SkillRunContext,
  toSkillRunConfig,
} from "./run-config.js";
import { type InputSpec, type StagedInput, stageInputs } from "./stage-inputs.js";
import { pinnedStaging } from "./verify-staged-skill.js";
import type { StageSkillOptions, Workspace } from "./workspace.js";

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
 * Runs a command for a skill: {@link authorise} (the skill, its loaded state, the command policy), then
 * {@link stage} (the skill, the inputs, a run folder), {@link execute} (the executor with the cleared
 * environment plus the skill's secrets, under the disk quota) and {@link collect} (outputs, warnings, the
 * result), every text returned redacted of the skill's secrets. Never throws: expected failures are
 * `refused` results, and an unexpected host-side failure (e.g. the workspace changed under it) is refused
 * with its message too. The request is not validated again: callers pass what the `skill_run` schema
 * accepted (or build it in code). A flat {@link SkillRunContext} (deprecated) is still accepted.
 */
export async function runSkillCommand(
  input: SkillRunRequest,
  run: SkillRunConfig | SkillRunContext,
): Promise<SkillRunResult> {
  const config = toSkillRunConfig(run);
  // The span says what ran and how it ended; never the command, its arguments or output (they may hold
  // what the skill's env put there).
  return inSpan(
    `skill_run ${input.name}`,
    { attributes: () => skillSpanAttributes(input.name, config.lookup.getSkill(input.name)) },
    async (span) => {
      const result = await runTraced(input, config);
      if (span === undefined) return result;
      if (result.status === "refused") {
        failSpan(span, result.message, "refused");
        return result;
      }
      span.setAttributes({
        "process.exit.code": result.exitCode,
        "skillrt.run.duration_ms": Math.round(result.durationMs),
        "skillrt.run.timed_out": result.timedOut,
        "skillrt.run.aborted": result.aborted,
        "skillrt.run.executor": result.executor,
      });
      if (result.limitsHit.length > 0) span.setAttribute("skillrt.run.limits_hit", result.limitsHit);
      if (result.exitCode !== 0 || result.timedOut)
        failSpan(
          span,
          result.timedOut ? "timed out" : `exit code ${result.exitCode}`,
          result.timedOut ? "timeout" : "exit_code",
        );
      return result;
    },
  );
}

async function runTraced(input: SkillRunRequest, config: SkillRunConfig): Promise<SkillRunResult> {
  const redactor = createRedactor(Object.values(config.environment.skillEnv?.[input.name] ?? {}));
  try {
    const authorised = authorise(input, config);
    if ("status" in authorised) return authorised;
    const staged = await stage(input, authorised.record, config, redactor);
    if ("status" in staged) return staged;
    const executed = await execute(input, staged, config, redactor);
    return await collect(input, staged, executed, config.environment, redactor);
  } catch (error) {
    return refuse(
      input.name,
      redactor.redact(
        `skill_run failed on the host: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
}

/**
 * Whether `input` may run: the skill exists (else the closest names), is loaded when the policy requires
 * it, and the command passes the policy's lists. Nothing is touched on disk.
 */
function authorise(
  input: SkillRunRequest,
  { lookup, policy }: SkillRunConfig,
): { record: SkillRecord } | SkillRunRefused {
  const record = lookup.getSkill(input.name);
  if (record === undefined) {
    const closest = lookup.closest?.(input.name) ?? [];
    const hint = closest.length > 0 ? ` Did you mean: ${closest.join(", ")}?` : "";
    return refuse(input.name, `Skill '${input.name}' not found.${hint}`);
  }
  if (policy?.requireLoaded === true && lookup.isLoaded?.(input.name) !== true) {
    return refuse(
      input.name,
      `skill_run requires ${policy.loadToolName ?? "skill_load"} first for "${input.name}". Load the skill, read its instructions, then run again.`,
    );
  }
  const decision = checkCommandPolicy(input.command, policy);
  if (!decision.ok) return refuse(input.name, decision.message);
  return { record };
}

/** A run staged in its workspace, ready to execute. */
interface StagedRun {
  staged: StagedSkill;
  /** Absolute working directory of the command. */
  cwd: string;
  /** Absolute run directory (`runs/run_…`). */
  runDir: string;
  stagedInputs: StagedInput[];
  /** Folders of linked inputs mounted read-only (every one linked in this workspace so far). */
  links: ReadonlySet<string>;
  /** What repairing the workspace did. */
  repairs: string[];
  /** The host folder the command runs in (real path), mounted read-only; see `SkillRunConfig.hostCwd`. */
  hostCwd?: string;
}

type StagedSkill = Awaited<ReturnType<Workspace["stageSkill"]>>;

/**
 * Puts the skill into the workspace (the real folder for executors that mount it read-only, a copy for
 * `local`, a verified copy for a skill whose trust is bound to a digest), resolves the working directory,
 * then stages the inputs and takes a run folder. Repairs and the staging of inputs are serialised per
 * workspace: parallel runs prepare one after the other.
 */
async function stage(
  input: SkillRunRequest,
  record: SkillRecord,
  { environment, lookup, trust, hostCwd, skillLinks }: SkillRunConfig,
  redactor: Redactor,
): Promise<StagedRun | SkillRunRefused> {
  const { workspace } = environment;
  let staged: StagedSkill;
  let repairs: string[];
  // Executors that mount get the real folder read-only; `local` ignores mounts, so it gets a copy. A
  // pinned skill always runs from a copy checked against its trusted digest: the real folder may change
  // after the check, the copy in the private workspace does not.
  const pin = trust?.pinOf?.(record);
  const options: StageSkillOptions = { copy: environment.executor.kind === "local" };
  if (skillLinks === true) options.links = true;
  if (pin !== undefined) options.verify = pinnedStaging(pin, record);
  try {
    repairs = await serialised(workspace, () => workspace.repair());
    staged = await workspace.stageSkill(record, options);
  } catch (error) {
    if (SkillChangedError.isInstance(error)) return refuse(input.name, redactor.redact(error.message));
    return refuse(
      input.name,
      redactor.redact(`Cannot run skill '${input.name}': ${(error as Error).message}`),
    );
  }
  const cwd =
    hostCwd === undefined
      ? await workspace.resolveCwd(staged, input.cwd)
      : await realpath(hostCwd).then(
          (dir) => ({ cwd: dir }),
          () => ({ error: `the folder to run in (${hostCwd}) does not exist` }),
        );
  if ("error" in cwd) return refuse(input.name, cwd.error);

  const stagedInputs: StagedInput[] = [];
  const prepared = await serialised(workspace, async () => {
    if (input.inputs !== undefined && input.inputs.length > 0) {
      const result = await stageInputs(input.inputs, {
        root: workspace.root,
        maxBytes: quotaOf(environment),
        ...(environment.artifactStore === undefined ? {} : { artifactStore: environment.artifactStore }),
        ...(environment.hostDirs === undefined ? {} : { hostDirs: environment.hostDirs }),
        resolveSkill: lookup.getSkill,
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
  const links = linkedMounts.get(workspace) ?? new Set<string>();
  linkedMounts.set(workspace, links);
  for (const s of stagedInputs) if (s.linkedPath !== undefined) links.add(s.linkedPath);
  return {
    staged,
    cwd: cwd.cwd,
    runDir: prepared.runDir,
    stagedInputs,
    links,
    repairs,
    ...(hostCwd === undefined ? {} : { hostCwd: cwd.cwd }),
  };
}

/** What executing a staged run gave: the executor's result, the limits it hit and the warnings so far. */
interface ExecutedRun {
  result: ExecResult;
  limitsHit: string[];
  /** Workspace repairs, ignored `env` names and the disk quota, in that order. */
  warnings: string[];
}

/**
 * Runs the staged command through the executor: a cleared environment (`PATH`, `LANG`, the workspace's
 * variables) plus the skill's secrets and the caller's allowed `env`, the staged folders mounted, the
 * timeout capped by the policy, the limits capped by the disk quota, which a watcher enforces by
 * stopping the run.
 */
async function execute(
  input: SkillRunRequest,
  run: StagedRun,
  { environment, policy, skillLinks }: SkillRunConfig,
  redactor: Redactor,
): Promise<ExecutedRun> {
  const { workspace, executor } = environment;
  const warnings: string[] = [...run.repairs];
  const callerEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.env ?? {})) {
    if (BLOCKED_ENV.test(key) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      warnings.push(`env ${key} ignored (not allowed)`);
    else callerEnv[key] = value;
  }
  const env: Record<string, string> = {
    PATH: DEFAULT_EXEC_PATH,
    LANG: "C.UTF-8",
    ...(executor.kind === "local" ? { TMPDIR: workspace.tmpDir } : {}),
    ...workspace.runEnv(run.staged, run.runDir),
    ...environment.skillEnv?.[input.name],
    ...callerEnv,
  };
  if (skillLinks === true) {
    // trpc's exports: the skill's `.venv/bin` first, its `bin/` last; VIRTUAL_ENV unless given.
    const view = run.staged.viewDir;
    if (callerEnv["PATH"] === undefined) env["PATH"] = `${view}/.venv/bin:${env["PATH"]}:${view}/bin`;
    env["VIRTUAL_ENV"] ??= `${view}/.venv`;
  }
  const mounts: ExecMount[] = [
    // First, so the workspace's own mounts stay on top of it when the folder holds the workspace.
    ...(run.hostCwd === undefined ? [] : [{ source: run.hostCwd, readOnly: true }]),
    ...workspace.mounts(run.staged),
    ...[...run.links].map((source) => ({ source, readOnly: true })),
  ];
  const timeoutSeconds = Math.min(
    input.timeout ?? policy?.defaultTimeoutSeconds ?? DEFAULT_RUN_TIMEOUT_SECONDS,
    policy?.maxTimeoutSeconds ?? 3600,
  );
  const quota = quotaOf(environment);
  const limits: ExecLimits = environment.limits ?? DEFAULT_LIMITS;
  const overQuota = new AbortController();
  const abortSignal =
    environment.abortSignal === undefined
      ? overQuota.signal
      : AbortSignal.any([environment.abortSignal, overQuota.signal]);
  const watch = await watchDiskQuota({
    root: workspace.root,
    quotaBytes: quota,
    onExceeded: () => overQuota.abort(),
  });
  const result = await executor.run({
    command: input.command,
    cwd: run.cwd,
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
    ...(policy?.maxOutputBytes === undefined ? {} : { maxOutputBytes: policy.maxOutputBytes }),
    ...(input.interactive === undefined ? {} : { interactive: input.interactive }),
    ...(environment.onOutputLine === undefined
      ? {}
      : { onOutput: outputLines(redactor, environment.onOutputLine) }),
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
  return { result, limitsHit, warnings };
}

/**
 * The run's result: the requested outputs collected from the run folder (saved to the artifact store
 * when asked), a hint when the command failed writing into the read-only skill folder, and every name,
 * reference and warning redacted.
 */
async function collect(
  input: SkillRunRequest,
  run: StagedRun,
  executed: ExecutedRun,
  environment: RunEnvironment,
  redactor: Redactor,
): Promise<SkillRunCompleted> {
  const { result, limitsHit, warnings } = executed;
  const runRel = path.relative(environment.workspace.root, run.runDir);
  let collected: CollectedOutputs = { files: [], limitsHit: [], warnings: [] };
  if (input.outputs !== undefined) {
    collected = await collectOutputs(input.outputs, {
      root: environment.workspace.root,
      runRel,
      redactor,
      ...(environment.artifactStore === undefined ? {} : { artifactStore: environment.artifactStore }),
    });
  }
  const readOnlyHit = run.staged.copied
    ? /read-only file system|permission denied/i
    : /read-only file system/i;
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
    aborted: result.aborted && environment.abortSignal?.aborted === true,
    durationMs: result.durationMs,
    truncated: result.truncated,
    outputFiles: collected.files.map((f) => ({
      ...f,
      name: redactor.redact(f.name),
      ref: redactor.redact(f.ref),
    })),
    limitsHit: [...limitsHit, ...collected.limitsHit],
    stagedInputs: run.stagedInputs,
    warnings: [...result.warnings, ...warnings, ...collected.warnings].map((w) => redactor.redact(w)),
    executor: result.executor,
    runDir: runRel,
  };
}

/** Bytes one run may add to the workspace. */
function quotaOf(environment: RunEnvironment): number {
  return environment.diskQuotaBytes ?? DEFAULT_DISK_QUOTA_BYTES;
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
