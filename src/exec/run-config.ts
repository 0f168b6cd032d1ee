/**
 * The configuration of one skill run, in three parts every layer passes on as they are: the
 * {@link RunEnvironment} (where and how the command runs), the {@link RunPolicy} (what a run is allowed)
 * and the {@link SkillLookup} (how the skill named in a request is found). `runSkillCommand` takes all
 * three as a {@link SkillRunConfig}; a layer that has no lookup yet (the tools, the agent, the MCP server,
 * the CLI's config) holds a {@link RunSetup} or, before a workspace and executor are chosen, a
 * {@link RunSettings}.
 *
 * The flat bag of earlier versions ({@link SkillRunContext}) is still accepted where it was public and is
 * split here, once, by {@link toRunSettings}.
 */
import type { SkillTrust } from "../catalog/skill-trust.js";
import type { SkillRecord } from "../catalog/types.js";
import type { ArtifactStore } from "./artifact-store.js";
import type { CommandPolicy } from "./command-policy.js";
import type { Executor } from "./executor.js";
import type { ExecLimits } from "./limits.js";
import type { Workspace } from "./workspace.js";

/** Where and how a skill's command runs: the workspace, the executor and what the run is given. */
export interface RunEnvironment {
  /** The workspace the skill is staged in and the run's folders are made in. */
  workspace: Workspace;
  /** Runs the command (local processes, the bubblewrap sandbox, a container, an AI SDK sandbox). */
  executor: Executor;
  /** Per-skill environment (secrets), e.g. `loadSkillEnvConfig().skills`; redacted from everything returned. */
  skillEnv?: Record<string, Record<string, string>>;
  /** Host directories `host://` inputs may come from. Default none. */
  hostDirs?: string[];
  /** Where `artifact://` inputs come from and saved outputs go. Default: no artifacts. */
  artifactStore?: ArtifactStore;
  /** Memory, process and file limits of the run. Default `DEFAULT_LIMITS`. */
  limits?: ExecLimits;
  /**
   * Bytes one run may add to the workspace (outputs and work files). Past it the run is stopped and the
   * result says so (`limitsHit: ["disk_quota"]`); also the largest file a run may write and the size of
   * the sandbox's `/tmp`. Default `DEFAULT_DISK_QUOTA_BYTES` (1 GiB). See `watchDiskQuota` for what is
   * enforced how.
   */
  diskQuotaBytes?: number;
  /** Stops the run (its process tree is killed; the result says `aborted`). */
  abortSignal?: AbortSignal;
  /**
   * Receives the command's latest output line while it runs (redacted like the result, at most one call
   * per chunk of output), for a progress display. Never seen by the model.
   */
  onOutputLine?: (line: string) => void;
}

/**
 * What a run is allowed: the command lists (`allow`, `deny`: deny wins; an empty or absent allow list
 * allows everything not denied), whether the skill must be loaded first, timeouts and output size.
 */
export interface RunPolicy extends CommandPolicy {
  /** Refuse runs of skills that are not loaded (see {@link SkillLookup.isLoaded}). Default false. */
  requireLoaded?: boolean;
  /** Name of the tool that loads a skill, for the `requireLoaded` refusal. Default `skill_load`. */
  loadToolName?: string;
  /** Timeout of a run that asks for none, in seconds. Default `DEFAULT_RUN_TIMEOUT_SECONDS` (300). */
  defaultTimeoutSeconds?: number;
  /** Upper bound on a requested timeout, in seconds. Default 3600. */
  maxTimeoutSeconds?: number;
  /** Bytes of stdout and of stderr returned. Default 16 KiB each. */
  maxOutputBytes?: number;
}

/** How a run finds the skill a request names (a catalog, or a session's view of one). */
export interface SkillLookup {
  /** Looks up a skill by name (e.g. `catalog.get`). */
  getSkill: (name: string) => SkillRecord | undefined;
  /** Names close to an unknown one, for the refusal (e.g. `catalog.closest`). Default none. */
  closest?: (name: string) => string[];
  /** Whether the skill is loaded in the session; used with {@link RunPolicy.requireLoaded}. */
  isLoaded?: (name: string) => boolean;
}

/** A run's environment and policy, before a skill is looked up (what the skill tools hold). */
export interface RunSetup {
  environment: RunEnvironment;
  /** Default: everything allowed, default timeouts and output size. */
  policy?: RunPolicy;
}

/** Everything one run is given: `runSkillCommand(request, { environment, policy, lookup })`. */
export interface SkillRunConfig extends RunSetup {
  lookup: SkillLookup;
  /**
   * The trust the caller checked the skill against (callers refuse untrusted skills before running).
   * A skill whose trust is bound to a digest ({@link SkillTrust.pinOf}) runs from a private copy that is
   * digested and must match: what runs is exactly what was trusted. Default: the skill's folder is
   * staged as it is.
   */
  trust?: SkillTrust;
  /**
   * A host folder the command runs in instead of the skill's folder, mounted read-only (shell
   * pre-render's project directory: Claude Code runs `` !`cmd` `` where the session runs). Set only by
   * skillrt itself for a trusted skill, never from a model's request. Default: the request's `cwd` in the
   * skill's folder.
   */
  hostCwd?: string;
  /**
   * Stage the skill as trpc-agent-go does: a copy with `out`, `work`, `inputs` and `.venv` links (see
   * `StageSkillOptions.links`), for the `trpc` profile's tools. Default `false`.
   */
  skillLinks?: boolean;
}

/**
 * A run's settings before its workspace and executor are chosen: what a host or a config file sets
 * (secrets, `host://` folders, artifacts, limits; command lists, timeouts). The layer that chooses the
 * executor completes the environment (a `workspace` given here is used instead of a new one).
 */
export interface RunSettings {
  environment?: Partial<RunEnvironment>;
  policy?: RunPolicy;
}

/**
 * What `runSkillCommand` took before its configuration had three parts: one flat bag (`policy` is the
 * command lists).
 * @deprecated Pass `{ environment, policy, lookup }` ({@link SkillRunConfig}); a bag is still accepted.
 */
export interface SkillRunContext extends RunEnvironment, Omit<RunPolicy, keyof CommandPolicy>, SkillLookup {
  policy?: CommandPolicy;
}

/** The flat bag's keys that belong to the environment, the policy and the lookup. */
const ENVIRONMENT_KEYS = [
  "workspace",
  "executor",
  "skillEnv",
  "hostDirs",
  "artifactStore",
  "limits",
  "diskQuotaBytes",
  "abortSignal",
  "onOutputLine",
] as const satisfies ReadonlyArray<keyof RunEnvironment>;
const POLICY_KEYS = [
  "requireLoaded",
  "loadToolName",
  "defaultTimeoutSeconds",
  "maxTimeoutSeconds",
  "maxOutputBytes",
] as const satisfies ReadonlyArray<keyof RunPolicy>;
const LOOKUP_KEYS = ["getSkill", "closest", "isLoaded"] as const satisfies ReadonlyArray<keyof SkillLookup>;

type Flat = Partial<SkillRunContext> & RunSettings;

function pick<T>(from: Flat, keys: readonly string[]): Partial<T> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (from as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length === 0 ? undefined : (out as Partial<T>);
}

/**
 * The settings of `given`, split into environment and policy when it is a flat bag of earlier versions
 * ({@link SkillRunContext} or part of one): its `policy` (command lists) and its policy fields make the
 * {@link RunPolicy}, its environment fields the {@link RunEnvironment}. Settings already in parts are
 * returned as they are.
 */
export function toRunSettings(given: RunSettings | Partial<SkillRunContext>): RunSettings {
  const flat = given as Flat;
  const environment = pick<RunEnvironment>(flat, ENVIRONMENT_KEYS);
  const policy = pick<RunPolicy>(flat, POLICY_KEYS);
  if (environment === undefined && policy === undefined) return given as RunSettings;
  const merged: RunSettings = {};
  if (flat.environment !== undefined || environment !== undefined)
    merged.environment = { ...flat.environment, ...environment };
  if (flat.policy !== undefined || policy !== undefined) merged.policy = { ...flat.policy, ...policy };
  return merged;
}

/** The three parts of `given`: a {@link SkillRunConfig} as it is, or a flat bag ({@link SkillRunContext}) split. */
export function toSkillRunConfig(given: SkillRunConfig | SkillRunContext): SkillRunConfig {
  if ("environment" in given && "lookup" in given) return given;
  const settings = toRunSettings(given);
  return {
    environment: settings.environment as RunEnvironment,
    ...(settings.policy === undefined ? {} : { policy: settings.policy }),
    lookup: pick<SkillLookup>(given as Flat, LOOKUP_KEYS) as SkillLookup,
  };
}
