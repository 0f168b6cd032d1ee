/**
 * `createSkillMcpServer`: a skill catalog as an MCP server, so any MCP client (Claude Desktop, Cursor,
 * Codex, …) gets skillrt's skills:
 *
 * - **tools**: the canonical skill tools (`skill_load`, `skill_read`, `skill_list_docs`,
 *   `skill_select_docs`, `skill_unload`, `skill_search`, `skill_run`, script tools of loaded skills) with
 *   the engine's input schemas and result text; the catalog is in the server instructions and in the
 *   load tool's description;
 * - **resources**: `skill://<skill-path>/<path>` for every file of every served skill, paginated;
 * - **the Skills Extension** (SEP-2640, `io.modelcontextprotocol/skills` with `directoryRead`):
 *   `skills/list`, `skills/get` and `resources/directory/read`, entries with verbatim frontmatter and
 *   the SHA-256 of every file;
 * - **prompts**: one per user-invocable skill (`/name args`).
 */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { skillTrust, type TrustOption } from "../catalog/skill-trust.js";
import type { Catalog } from "../catalog/types.js";
import { createSkillSession } from "../context/create-skill-session.js";
import type { SkillSessionOptions } from "../context/session-options.js";
import type { SkillSession } from "../context/skill-session.js";
import { openSkillRun, resolveExecutor, type SkillRunLayer } from "../engine/open-skills.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { ExecutorChoice } from "../exec/create-executor.js";
import type { Executor } from "../exec/executor.js";
import { type RunSettings, toRunSettings } from "../exec/run-config.js";
import type { Workspace } from "../exec/workspace.js";
import { createSkillTools, type SkillRunSetup, type SkillTools } from "../tools/create-skill-tools.js";
import type { ProfileName } from "../tools/profile-types.js";
import { SKILLRT_VERSION } from "../util/version.js";
import { mcpSessionView } from "./mcp-session-view.js";
import { serveSkillPrompts } from "./serve-skill-prompts.js";
import { serveSkillResources } from "./serve-skill-resources.js";
import { createProgressRoutes, serveSkillTools } from "./serve-skill-tools.js";
import { type SkillsExtensionPaging, serveSkillsExtension, skillsCaching } from "./serve-skills-extension.js";
import { createSkillServing } from "./skill-serving.js";

/** Version reported to clients by default. */
export const SKILLRT_MCP_VERSION = SKILLRT_VERSION;

/**
 * How `skill_run` (and script tools) execute: the executor, the run `environment` (a `workspace`, else a
 * fresh one deleted when the server closes; secrets, `hostDirs`, artifacts, limits) and the `policy`
 * (command lists, `requireLoaded`, timeouts, output size).
 */
export interface SkillMcpExecOptions extends RunSettings {
  /**
   * An executor or a kind for `createExecutor`. Default: `environment.executor`, else `auto` (sandbox when
   * bubblewrap works, else local).
   */
  executor?: ExecutorChoice | Executor;
}

/**
 * The flat `exec` options of earlier versions (every run setting beside `executor` and `workspace`).
 * @deprecated Pass {@link SkillMcpExecOptions} (`{ executor, environment, policy }`).
 */
type FlatMcpExecOptions = Partial<SkillRunSetup> & {
  executor?: ExecutorChoice | Executor;
  workspace?: Workspace;
};

/** Options of {@link createSkillMcpServer}. */
export interface SkillMcpServerOptions {
  /** The skills to serve. When `session` is given, the session's own catalog is used instead. */
  catalog: Catalog;
  /**
   * The disclosure session behind the tools. Default: a new session over `catalog` with
   * `sessionOptions`. It must use `history` placement (a server cannot change the client's system prompt);
   * create it with `runTool: false` when `exec` is `false`, so its instructions do not name `skill_run`.
   */
  session?: SkillSession;
  /**
   * Options of the session created when `session` is not given. Defaults differ from the engine in one
   * way: `contextThreshold` is `Infinity` (the server cannot see the client's context, so it never evicts).
   */
  sessionOptions?: Omit<SkillSessionOptions, "catalog">;
  /**
   * Tool names and shapes of the session created when `session` is not given. Default `skillrt` (the
   * canonical tools). A given `session` brings its own profile (a different `profile` here throws).
   */
  profile?: ProfileName;
  /** `false` leaves out `skill_run` and script tools. Default: enabled with the `auto` executor. */
  exec?: false | SkillMcpExecOptions | FlatMcpExecOptions;
  /** Watch the catalog's roots and tell the client when tools, resources and prompts change. Default false. */
  watch?: boolean;
  /** Server name reported to clients. Default `skillrt`. */
  name?: string;
  /** Server version reported to clients. Default {@link SKILLRT_MCP_VERSION}. */
  version?: string;
  /** Page sizes: skills per `skills/list` and `resources/list` page, children per directory page. */
  paging?: SkillsExtensionPaging;
  /** Receives warnings meant for a person (e.g. the sandbox fallback). Default: dropped. */
  onWarning?: (message: string) => void;
  /**
   * The metadata cache directory (trusted-cache rules): the SHA-256 and size of every served file are kept
   * there, so a restarted server's first `skills/list` re-hashes only files changed since. Default: none
   * (digests are kept in memory, shared by the sessions of one catalog).
   */
  cacheDir?: string;
  /**
   * Which skills may run commands (`skill_run`, script tools): `true` every one, a `SkillTrust`, else the
   * default rule (project-scope skills untrusted). See `SkillLayerOptions.trust`.
   */
  trust?: TrustOption;
}

/**
 * Builds the MCP server (not yet connected: call `server.connect(transport)`). One server is one session:
 * what a client loads stays loaded for the next calls, but loading a skill again always returns its full
 * instructions. Runs are set up as the agent's are (`openSkillRun`: the executor choice and a private
 * workspace). Closing the server (or the transport) stops watching and deletes a workspace it created;
 * `close()` resolves once it is deleted.
 * The tool handlers are installed directly on `server.server`, so `registerTool` cannot add more tools to
 * this server. Throws when `session` uses `system` placement.
 */
export async function createSkillMcpServer(options: SkillMcpServerOptions): Promise<McpServer> {
  const session =
    options.session ??
    createSkillSession({
      contextThreshold: Number.POSITIVE_INFINITY,
      ...options.sessionOptions,
      placement: "history",
      profile: options.profile ?? "skillrt",
      runTool: options.exec !== false,
      catalog: options.catalog,
    });
  if (session.placement !== "history") {
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        "createSkillMcpServer: the session uses 'system' placement; an MCP server can only return skill content in tool results. Create the session with placement 'history'.",
    });
  }
  if (options.profile !== undefined && options.profile !== session.profile.name) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `createSkillMcpServer: profile '${options.profile}' was asked for, but the session uses '${session.profile.name}'. Create the session with profile '${options.profile}', or leave out profile.`,
    });
  }
  await session.init();
  const view = mcpSessionView(session);

  // Runs are set up as the agent's are (engine's openSkillRun): the executor choice, a private workspace.
  const exec = options.exec === false ? undefined : (options.exec ?? {});
  let runLayer: SkillRunLayer | undefined;
  if (exec !== undefined) {
    const { executor: choice, ...rest } = exec;
    const settings = toRunSettings(rest);
    const chosen = resolveExecutor(choice ?? settings.environment?.executor ?? "auto");
    if (chosen?.warning !== undefined) options.onWarning?.(chosen.warning);
    if (chosen !== undefined) runLayer = await openSkillRun(session.id, chosen.executor, settings);
  }
  const run = runLayer?.run;

  const trust = skillTrust(options.trust);
  const progress = createProgressRoutes();
  const buildTools = (): SkillTools =>
    createSkillTools(view, { trust, onProgress: progress.listener, ...(run === undefined ? {} : { run }) });
  const tools = buildTools();
  await tools.prepare();
  const instructions = tools.systemPrompt();
  const mcp = new McpServer(
    { name: options.name ?? "skillrt", version: options.version ?? SKILLRT_MCP_VERSION },
    instructions === "" ? {} : { instructions },
  );

  // A client that sends a progress token hears how a long skill_run goes.
  const served = serveSkillTools(mcp, { tools, loadToolName: () => view.profile.toolNames.load, progress });
  const prompts = serveSkillPrompts(mcp, view, () => served.refresh());
  const serving = createSkillServing(view, options.cacheDir);
  serveSkillResources(mcp, serving, options.paging?.skillsPerPage);
  serveSkillsExtension(mcp, serving, options.paging, skillsCaching(options.watch === true));

  let stopWatching: (() => void) | undefined;
  if (options.watch === true) {
    stopWatching = session.catalog.watch(() => {
      view.renderer.refreshCatalog();
      serving.invalidate();
      void served.replace(buildTools()).catch((error: unknown) => {
        options.onWarning?.(`could not refresh the skill tools: ${String(error)}`);
      });
      prompts.sync();
      mcp.sendResourceListChanged();
    });
  }

  let disposed: Promise<void> | undefined;
  const previousOnClose = mcp.server.onclose;
  mcp.server.onclose = () => {
    previousOnClose?.();
    serving.flush();
    stopWatching?.();
    stopWatching = undefined;
    disposed ??= (runLayer?.dispose() ?? Promise.resolve()).catch((error: unknown) => {
      options.onWarning?.(
        `could not delete the workspace ${run?.environment.workspace.root}: ${String(error)}`,
      );
    });
  };
  // close() resolves once the workspace the server made is deleted.
  const close = mcp.close.bind(mcp);
  mcp.close = async () => {
    await close();
    await disposed;
  };
  return mcp;
}
