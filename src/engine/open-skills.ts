/**
 * The skill layer of one conversation, built the same way for the `SkillAgent` and the AI SDK toolkit:
 * catalog (default roots as in the CLI), skill session (new or restored), workspace, executor and tools.
 */

import os from "node:os";
import path from "node:path";
import type { Experimental_SandboxSession } from "ai";
import { defaultCacheDir } from "../catalog/cache-dir.js";
import { createCatalog } from "../catalog/create-catalog.js";
import { defaultRoots, normalizeRoots } from "../catalog/default-roots.js";
import { isRemoteRootSpec } from "../catalog/remote/root-spec.js";
import { skillTrust, type TrustOption } from "../catalog/skill-trust.js";
import type { Catalog, SkillRecord, SkillRoot } from "../catalog/types.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { restoreSkillSession } from "../context/restore-skill-session.js";
import type { Placement, SkillSessionOptions } from "../context/session-options.js";
import type { SkillSession } from "../context/skill-session.js";
import { createExecutor, type ExecutorChoice } from "../exec/create-executor.js";
import { createWorkspace } from "../exec/create-workspace.js";
import { closeExecSessions } from "../exec/exec-session.js";
import type { Executor } from "../exec/executor.js";
import { type RunSettings, type RunSetup, type SkillRunContext, toRunSettings } from "../exec/run-config.js";
import { createSandboxSessionExecutor } from "../exec/sandbox-session-executor.js";
import { createShellPreRender } from "../exec/shell-pre-render.js";
import { sanitizeName, type Workspace } from "../exec/workspace.js";
import { createSkillTools, type SkillTools } from "../tools/create-skill-tools.js";
import type { McpSkillRuns } from "../tools/mcp-client/prepare-mcp-skill-run.js";
import type { ProfileName } from "../tools/profile-types.js";
import type { ToolProgressListener } from "../tools/tool-progress.js";
import type { ToolSourceOptions, ToolSources } from "./open-tool-sources.js";

/**
 * The flat `skill_run` settings of earlier versions (secrets, command lists, host folders, …).
 * @deprecated Pass `run: { environment, policy }` ({@link RunSettings}); flat settings are still accepted.
 */
export type SkillRunSettings = Partial<
  Pick<
    SkillRunContext,
    "skillEnv" | "policy" | "hostDirs" | "artifactStore" | "requireLoaded" | "defaultTimeoutSeconds"
  >
>;

/** Where skills come from and how a conversation's skill layer (and the host's tools) is set up. */
export interface SkillLayerOptions extends ToolSourceOptions {
  /**
   * Skill folders (paths relative to `cwd`, or roots with a scope), archives (`.zip`, `.tar`, `.tar.gz`,
   * `.tgz`), `http(s)://` archive or `SKILL.md` URLs and `git+https://…#ref` / `git+file://…#ref`
   * repositories, each optionally pinned with `#sha256=<hex>` (see docs/sources.md: fetched once into
   * the user's cache dir; one that cannot be had is in the catalog's `diagnostics()`). Default: the project roots
   * (`skills/`, `.agents/skills/`, `.claude/skills/` under `cwd`), the user roots under `HOME` and each
   * `SKILLS_DIR` entry — what `skillrt list` scans.
   */
  skills?: string | ReadonlyArray<string | SkillRoot>;
  /** A catalog you built (then `skills` is not used). */
  catalog?: Catalog;
  /** Base of relative paths and of `host://` inputs. Default `process.cwd()`. */
  cwd?: string;
  /** Environment for the default roots (`HOME`, `SKILLS_DIR`). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Where loaded skills go: `history` (default) or `system`. */
  placement?: Placement;
  /** Tool names and shapes the model sees. Default `skillrt`. */
  profile?: ProfileName;
  /** Tokens for the skill catalog. Default 1% of a known context window, else 2,000. */
  catalogBudget?: number;
  /** The model's context window in tokens, when known (budgets, eviction). */
  contextWindow?: number;
  /** Skills loaded when the conversation starts (besides `active: true` ones). */
  activeSkills?: string[];
  /**
   * Skills the user forced for this task (AWorld's `requested_skill_names`, `ask --skill NAME`): loaded when
   * the conversation starts, named in the aworld profile's `<forced_skill_contract>`, and, when every one
   * is instruction-only, no host tool is offered while they are active. Default none.
   */
  forcedSkills?: string[];
  /** Most skills active at once (a model's load past it is refused). Default: no cap. */
  maxActive?: number;
  /** Only skills whose name matches one of these globs are offered. */
  allow?: string[];
  /** Skills whose name matches one of these globs are hidden. */
  deny?: string[];
  /**
   * Where `skill_run` (and script tools) run commands: `auto` (default: the bubblewrap sandbox when it
   * works, else local processes with a one-time warning), `sandbox`, `local`, `container`, an
   * `Executor` of your own, any AI SDK `Experimental_SandboxSession` (a hosted sandbox, or
   * `createBubblewrapSandboxSession()`: skills are staged into it and run there), or `false` for no
   * execution tools.
   */
  executor?: ExecutorChoice | Executor | Experimental_SandboxSession | false;
  /**
   * Settings of `skill_run` and script tools: `environment` (per-skill secrets `skillEnv`, `hostDirs`,
   * `artifactStore`, `limits`, `diskQuotaBytes`; a `workspace` given here is used and left in place, else
   * each conversation gets its own; the executor is the `executor` option) and `policy` (command lists
   * `allow`/`deny`, `requireLoaded`, `defaultTimeoutSeconds`, …). Default: `host://` inputs from `cwd` only.
   */
  run?: RunSettings | SkillRunSettings;
  /**
   * Further session settings: the profile tools offered (`skillTools`), the `trpc` profile's overview cap
   * (`maxOverviewSkills`), how long loads stay (`loadMode`), the LRU limit (`maxLoadedSkills`) and the
   * token counter of budgets and the ledger (`tokenCounter`; default o200k_base), the host variables
   * skills' requirements are checked against (`requirementsEnv`) and the preamble (`preamble`; `""`: none,
   * under `trpc` no guidance blocks).
   */
  session?: Pick<
    SkillSessionOptions,
    | "skillTools"
    | "maxOverviewSkills"
    | "loadMode"
    | "maxLoadedSkills"
    | "tokenCounter"
    | "requirementsEnv"
    | "preamble"
  >;
  /**
   * Which skills may run commands, pre-approve tools through `allowed-tools` and pre-render
   * `` !`cmd` ``: `true` every one, a `SkillTrust` of your own, else (default) every skill but the
   * project-scope ones (`needsTrustByDefault`). An untrusted skill is still listed and loadable; each
   * refusal tells the model the `skillrt trust` command to give the user.
   */
  trust?: TrustOption;
  /**
   * Run a trusted skill's `` !`command` `` and ```` ```! ```` blocks when it loads, in the project directory
   * (`cwd`, read-only in a sandbox) with the run limits, output (capped, redacted) in place; an untrusted skill's are
   * replaced by a note. `false` leaves them as written, everywhere (config `exec.shellPreRender`). Default true.
   */
  shellPreRender?: boolean;
}

/** A conversation's skill layer. */
export interface SkillLayer {
  session: SkillSession;
  skillTools: SkillTools;
  /** Undefined without an executor. */
  workspace: Workspace | undefined;
  /** Deletes the workspace. */
  dispose(): Promise<void>;
}

/** Builds the catalog of `options` (or returns the one given). */
export async function openCatalog(options: SkillLayerOptions): Promise<Catalog> {
  if (options.catalog !== undefined) return options.catalog;
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const given = options.skills === undefined ? undefined : [options.skills].flat();
  const home = env["HOME"];
  if (given?.some((root) => typeof root === "string" && isRemoteRootSpec(root)) === true)
    return openRemoteCatalog(given, cwd, env);
  const roots =
    given !== undefined && given.length > 0
      ? normalizeRoots(given, cwd)
      : defaultRoots({ cwd, env, ...(home === undefined || home === "" ? {} : { home }) });
  return createCatalog({ roots, cwd, env });
}

/**
 * A catalog of roots some of which are remote or archives: fetched into the user's cache dir (as the
 * CLI does), a root that cannot be had reported in `diagnostics()` while the others are served.
 */
async function openRemoteCatalog(
  given: ReadonlyArray<string | SkillRoot>,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<Catalog> {
  const { resolveRoots } = await import("../catalog/remote/resolve-roots.js");
  const home = env["HOME"];
  const cacheDir =
    defaultCacheDir(
      { ...env, SKILLRT_CACHE: undefined },
      ...(home === undefined || home === "" ? [] : [home]),
    ) ?? path.join(os.tmpdir(), `skillrt-${process.getuid?.() ?? "user"}`);
  const resolved = await resolveRoots(given, { cacheDir, cwd, env });
  const catalog = await createCatalog({ roots: resolved.roots, cwd, env });
  if (resolved.diagnostics.length === 0) return catalog;
  return { ...catalog, diagnostics: () => [...resolved.diagnostics, ...catalog.diagnostics()] };
}

/**
 * The executor `choice` names (`auto` by default), with the warning meant for a person when `auto` fell
 * back to local processes; undefined for `false`.
 */
export function resolveExecutor(
  choice: SkillLayerOptions["executor"],
): { executor: Executor; warning?: string } | undefined {
  if (choice === false) return undefined;
  // Any AI SDK sandbox (it has `spawn`; an Executor has `kind`): runs go through its file and process API.
  if (typeof choice === "object" && "spawn" in choice)
    return { executor: createSandboxSessionExecutor({ sandbox: choice }) };
  if (typeof choice === "object") return { executor: choice };
  return createExecutor({ kind: choice ?? "auto" });
}

/** The executor `choice` names (`auto` by default); undefined for `false`. */
export function chooseExecutor(choice: SkillLayerOptions["executor"]): Executor | undefined {
  return resolveExecutor(choice)?.executor;
}

/** What `skill_run` of one session runs with: its setup, and the workspace to delete afterwards. */
export interface SkillRunLayer {
  run: RunSetup;
  /** Deletes the workspace when this layer made it (a given one is left alone). */
  dispose(): Promise<void>;
}

/**
 * `run` (settings in parts, or flat settings of earlier versions) with `hostDirs` as the `host://`
 * folders unless it names its own.
 */
export function runSettingsWith(
  run: RunSettings | SkillRunSettings | undefined,
  hostDirs: string[],
): RunSettings {
  const settings = toRunSettings(run ?? {});
  return { ...settings, environment: { hostDirs, ...settings.environment } };
}

/**
 * The run setup of a session on `executor`: `settings` completed with the executor and a workspace (the
 * settings' own, or a new private one named after the session). The agent, the AI SDK toolkit and the
 * MCP server all set up runs here.
 */
export async function openSkillRun(
  sessionId: string,
  executor: Executor,
  settings: RunSettings,
): Promise<SkillRunLayer> {
  const given = settings.environment?.workspace;
  const owned = given === undefined ? await createWorkspace({ id: sessionId }) : undefined;
  const used = given ?? (owned as Workspace);
  return {
    run: {
      environment: { ...settings.environment, workspace: used, executor },
      ...(settings.policy === undefined ? {} : { policy: settings.policy }),
    },
    dispose: async () => {
      // Interactive sessions (skill_exec) end with the conversation, before its workspace goes.
      await closeExecSessions(used);
      await owned?.dispose();
    },
  };
}

/**
 * A session over `catalog` (restored from `snapshot` when given, else new with id `id` and its `active`
 * skills loaded), a workspace on `executor` and the profile's tools with `skill_run` whenever there is
 * an executor, plus the host's tools of `toolSources` (gated by the active skills, behind approvals).
 */
export async function openSkillLayer(
  catalog: Catalog,
  options: SkillLayerOptions,
  conversation: {
    id: string;
    snapshot?: unknown;
    executor: Executor | undefined;
    /** Host tools (registry, MCP servers), gated and behind approvals. Default: none. */
    toolSources?: Pick<ToolSources, "registry" | "gating" | "approval">;
    /** Receives the output lines of running `skill_run` commands (throttled), for a progress display. */
    onProgress?: ToolProgressListener;
  },
): Promise<SkillLayer> {
  const { executor, toolSources: sources } = conversation;
  const cwd = options.cwd ?? process.cwd();
  const trust = skillTrust(options.trust);
  const settings = runSettingsWith(options.run, [cwd]);
  // The workspace is made first: `init()` and a restore load skills, whose `!`cmd` run in it.
  const runLayer =
    executor === undefined ? undefined : await openSkillRun(conversation.id, executor, settings);
  const common = {
    catalog,
    profile: options.profile ?? "skillrt",
    runTool: executor !== undefined,
    ...(options.activeSkills === undefined && options.forcedSkills === undefined
      ? {}
      : { activeSkills: [...new Set([...(options.activeSkills ?? []), ...(options.forcedSkills ?? [])])] }),
    ...(options.allow === undefined ? {} : { allow: options.allow }),
    ...(options.deny === undefined ? {} : { deny: options.deny }),
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    ...(options.catalogBudget === undefined ? {} : { catalogBudget: options.catalogBudget }),
    ...(options.maxActive === undefined ? {} : { maxActive: options.maxActive }),
    ...(settings.environment?.skillEnv === undefined ? {} : { skillEnv: settings.environment.skillEnv }),
    ...options.session,
    ...(options.shellPreRender === false
      ? {}
      : {
          preRender: createShellPreRender({
            run: runLayer?.run,
            trust,
            stage: stageServedSkill(catalog),
            projectDir: cwd,
          }),
        }),
    // Where commands see a skill's folder: its view in the workspace (the host folder is not mounted).
    ...(runLayer === undefined
      ? {}
      : {
          skillRunDir: (name: string) =>
            path.join(runLayer.run.environment.workspace.skillsDir, sanitizeName(name)),
        }),
  };
  let session: SkillSession;
  try {
    if (conversation.snapshot !== undefined && conversation.snapshot !== null) {
      session = await restoreSkillSession(conversation.snapshot, common);
    } else {
      session = createSkillSession({
        ...common,
        id: conversation.id,
        placement: options.placement ?? "history",
      });
      await session.init();
    }
  } catch (error) {
    await runLayer?.dispose();
    throw error;
  }
  // The catalog is rendered now, so its one-time costs (the tokenizer's tables, counting the listed skills)
  // fall on opening the conversation and not, in one block, on the event loop in the middle of its first turn.
  session.renderer.catalogStats();
  const workspace = runLayer?.run.environment.workspace;
  const skillTools = createSkillTools(session, {
    trust,
    ...(conversation.onProgress === undefined ? {} : { onProgress: conversation.onProgress }),
    ...(runLayer === undefined ? {} : { run: runLayer.run }),
    ...(options.forcedSkills === undefined ? {} : { forcedSkills: options.forcedSkills }),
    ...(sources === undefined
      ? {}
      : {
          registry: sources.registry,
          approval: sources.approval,
          ...(sources.gating === undefined ? {} : { gating: sources.gating }),
        }),
  });
  return {
    session,
    skillTools,
    workspace,
    dispose: async () => {
      await runLayer?.dispose();
    },
  };
}

/**
 * For pre-render: a local copy of a served skill's files, each verified against its entry. Asked only for
 * a skill whose server the user trusted (the pre-render checks trust first), so its runs need no approval.
 */
function stageServedSkill(
  catalog: Catalog,
): (record: SkillRecord) => Promise<{ ok: true; record: SkillRecord } | { ok: false; message: string }> {
  let runs: McpSkillRuns | undefined;
  return async (record) => {
    // Loaded only when a served skill's `!`cmd` runs.
    const { createMcpSkillRuns, mcpSkillRunKey, prepareMcpSkillRun } = await import(
      "../tools/mcp-client/prepare-mcp-skill-run.js"
    );
    runs ??= createMcpSkillRuns();
    return prepareMcpSkillRun({
      record,
      catalog,
      approval: { allow: [mcpSkillRunKey(record)] },
      runs,
      toolCallId: "pre-render",
      command: "pre-render",
    }).catch((error: unknown) => ({
      ok: false as const,
      message: error instanceof Error ? error.message : String(error),
    }));
  };
}
