/**
 * `createSkillTools`: the AI SDK tools a model uses to disclose skills, in one compatibility profile, over
 * one {@link SkillSession}. The engine calls `systemPrompt()` and `activeToolNames()` every step and
 * passes `tools` (a live record: script tools are added when their skill first loads).
 */
import path from "node:path";
import { type Tool, tool } from "ai";
import { z } from "zod";
import {
  ensureTrusted,
  mayNow,
  type SkillTrust,
  skillTrust,
  untrustedMessage,
} from "../catalog/skill-trust.js";
import type { SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";
import {
  type RunSetup,
  type SkillRunConfig,
  type SkillRunContext,
  toRunSettings,
} from "../exec/run-config.js";
import { runSkillCommand, type SkillRunResult } from "../exec/run-skill-command.js";
import { listScriptTools, runScriptTool, type ScriptTool } from "../exec/script-tools.js";
import { sanitizeName } from "../exec/workspace.js";
import {
  type ActiveTools,
  type AllowedToolsPolicy,
  computeActiveTools,
  type ToolGating,
} from "./compute-active-tools.js";
import { guardToolInput, MAX_TOOL_INPUT_BYTES } from "./guard-tool-input.js";
import { matchesAllowedTool, parseAllowedTool } from "./match-allowed-tool.js";
import type { ProfileContext, ProfileName, ProfileTools } from "./profile-types.js";
import { agentscopeProfile } from "./profiles/agentscope-profile.js";
import { aworldProfile } from "./profiles/aworld-profile.js";
import { claudeProfile } from "./profiles/claude-profile.js";
import { omniProfile } from "./profiles/omni-profile.js";
import { skillrtProfile } from "./profiles/skillrt-profile.js";
import { trpcProfile } from "./profiles/trpc-profile.js";
import { renderRunText } from "./render-run-result.js";
import { skillNameSchema } from "./skill-name-schema.js";
import { type SkillRunOutput, toSkillRunOutput } from "./skill-run-output.js";
import { createSkillRunTool } from "./skill-run-tool.js";
import { type SkillToolResult, skillToolModelOutput, toolFailure, toolSuccess } from "./skill-tool-result.js";
import { createToolApprovals, type ToolApprovalOptions } from "./tool-approval.js";
import { type ToolEffects, toolEffects } from "./tool-effects.js";
import type { ToolProgressListener } from "./tool-progress.js";
import type { RegisteredTool, ToolRegistry } from "./tool-registry.js";

/**
 * The flat run setup of earlier versions: everything a run needs but the skill lookup.
 * @deprecated Pass `run: { environment, policy }` ({@link RunSetup}); a flat setup is still accepted.
 */
export type SkillRunSetup = Omit<SkillRunContext, "getSkill" | "closest" | "isLoaded">;

/** Options of {@link createSkillTools}. */
export interface SkillToolsOptions {
  /**
   * Where commands run (`environment`: workspace, executor, secrets, …) and what they may do (`policy`):
   * enables `skill_run` and the script tools of loaded skills; the session is the skill lookup. Default:
   * no execution tools.
   */
  run?: RunSetup | SkillRunSetup;
  /** Host tools gated by loaded skills (`computeActiveTools`). */
  registry?: ToolRegistry;
  /** `allowed-tools` policy. Default `ignore`. */
  policy?: AllowedToolsPolicy;
  /**
   * How server tools (MCP) are offered: `open` (every one, always) or `skill` (only while a loaded skill grants
   * it through `allowed-tools` or `tool_list`) or `tool-list` (AWorld's filter: only servers an active skill's
   * `tool_list` names are narrowed). Default `tool-list` under `aworld` and `skill` under `agentscope` (as in
   * their seed systems), `open` under the others.
   */
  gating?: ToolGating;
  /**
   * The older server-tool switch, used only when `gating` is not given and `serverTools` is: `closed` hides
   * servers no loaded skill's `tool_list` names; `open` offers them (and filters named servers to their lists).
   */
  serverTools?: "open" | "closed";
  /**
   * Skills the user or host forced for this task (AWorld's `requested_skill_names`), or a function read on
   * every step. While loaded, they count as forced for tool gating: when every forced, loaded skill is
   * instruction-only (no `tool_list`, not `type: agent`), host tools are disabled. Forcing does not load a
   * skill: list it in the session's `activeSkills` too (or load it) so its instructions are in context.
   * Default none.
   */
  forcedSkills?: readonly string[] | (() => readonly string[]);
  /**
   * Approvals of host tool calls (`tools.approval`, `tools.allow`, the host's `onApproval`): applied to the
   * registry's tools in {@link SkillTools.allTools}. A tool named by an active skill's `allowed-tools` is
   * pre-approved. Default: no approvals (every call runs).
   */
  approval?: ToolApprovalOptions;
  /**
   * Largest tool input accepted, in bytes of JSON. A bigger call is not executed: the model gets an error
   * result saying so (see also `capToolCallInputs`, which keeps such inputs out of stored history).
   * Default {@link MAX_TOOL_INPUT_BYTES} (1 MiB).
   */
  maxInputBytes?: number;
  /**
   * Which skills are trusted (`skillTrust`): an untrusted skill's commands are refused (`skill_run`, its
   * script tools) with a message naming `skillrt trust`, and its `allowed-tools` pre-approve nothing.
   * Default: the default rule (project-scope skills are untrusted).
   */
  trust?: SkillTrust;
  /** Receives the latest output line of a running `skill_run` (throttled per call); never the model. */
  onProgress?: ToolProgressListener;
}

/** The skill tools of one session. */
export interface SkillTools {
  profile: ProfileName;
  /**
   * Skill tools by name (profile tools, `skill_search`, `skill_run`, script tools). Live: grows as scripts
   * are found. Each returns a {@link SkillToolResult}; the model reads its `text`.
   */
  tools: Record<string, Tool>;
  /** `tools` plus the registry's host tools (behind the approval check when `approval` is set), for `generateText({ tools })`. */
  allTools(): Record<string, Tool>;
  /** Why a host tool's call would run without asking now (active skill, `tools.allow`, …); undefined when it would ask. */
  preapproval(name: string): string | undefined;
  /**
   * With deferred approvals (`approval.defer`): whether a call of tool `name` waits for the client's answer
   * (`user-approval`: a host tool nothing pre-approves now) or runs (`not-applicable`). Always
   * `not-applicable` without deferred approvals.
   */
  deferredApproval(name: string): "user-approval" | "not-applicable";
  /** Whether calls that need approval wait for the client (`approval.defer`) instead of asking `onApproval`. */
  defersApprovals: boolean;
  /** With deferred approvals: the client approved call `toolCallId`, which may now run. */
  grantApproval(toolCallId: string): void;
  /** Names to offer this step (AI SDK `activeTools`): gated host tools, then skill tools. `[]` of skill tools when there are no skills. */
  activeToolNames(): string[];
  /** The full gating decision (preapproved tools, reasons). */
  gating(): ActiveTools;
  /**
   * Shows the profile the conversation before a step (each message's content as text), for profile rules
   * that depend on it (OmniEmployee unloads skills the last 10 messages no longer mention).
   */
  observeHistory(contents: readonly string[]): void;
  /** The session's system prompt (preamble + catalog, plus loaded content in `system` placement). */
  systemPrompt(): string;
  /** Finds the script tools of skills loaded outside the tools (init, restore, slash commands). Call before a step. */
  prepare(): Promise<void>;
  /** JSON Schema of every tool's input (`z.toJSONSchema`, input side: fields with defaults are optional), for hosts with their own loop. */
  jsonSchemas(): Record<string, unknown>;
  /** What calling a tool does (read-only disclosure, or running commands); `undefined` for unknown names. */
  effects(name: string): ToolEffects | undefined;
}

/**
 * The server-tool gating a profile's seed system has: `tool-list` (AWorld's `_filter_tools`) for aworld,
 * `skill` for AgentScope, else `open`.
 */
export function defaultGating(profile: ProfileName): ToolGating {
  return profile === "aworld" ? "tool-list" : profile === "agentscope" ? "skill" : "open";
}

const PROFILES: Record<ProfileName, (ctx: ProfileContext) => ProfileTools> = {
  skillrt: skillrtProfile,
  claude: claudeProfile,
  trpc: trpcProfile,
  agentscope: agentscopeProfile,
  omni: omniProfile,
  aworld: aworldProfile,
};

/** Builds the tools of the session's profile (`session.profile`, set when the session is created) over `session`. */
export function createSkillTools(session: SkillSession, options: SkillToolsOptions = {}): SkillTools {
  const profileName = session.profile.name;
  const run = options.run === undefined ? undefined : (toRunSettings(options.run) as RunSetup);
  const maxInputBytes = options.maxInputBytes ?? MAX_TOOL_INPUT_BYTES;
  const trust = skillTrust(options.trust);
  /** Why `record`'s commands may not run: it is untrusted (asked once where a person can answer). */
  const untrustedReason = async (record: SkillRecord | undefined): Promise<string | undefined> =>
    record === undefined || (await ensureTrusted(trust, record, "run-code"))
      ? undefined
      : untrustedMessage(trust, record, "Commands");
  /** The refusal of running `record`'s commands when it is untrusted. */
  const untrusted = async (record: SkillRecord | undefined): Promise<SkillToolResult | undefined> => {
    const reason = await untrustedReason(record);
    return reason === undefined ? undefined : toolFailure(reason);
  };
  const scripts = new Map<string, ScriptTool[]>();
  const tools: Record<string, Tool> = {};
  const runTools = new Set<string>();
  // Every skill tool: the model reads the result's text, and an oversized input is refused before parsing.
  const add = (name: string, t: Tool): void => {
    tools[name] = guardToolInput(name, { ...t, toModelOutput: skillToolModelOutput }, maxInputBytes);
  };
  // A run's configuration: the setup, the profile's load tool in refusals, the session as the lookup.
  const runConfig = (abortSignal?: AbortSignal): SkillRunConfig | undefined =>
    run === undefined
      ? undefined
      : {
          environment: abortSignal === undefined ? run.environment : { ...run.environment, abortSignal },
          policy: { ...run.policy, loadToolName: session.profile.toolNames.load },
          lookup: {
            getSkill: (name) => {
              const found = session.findSkill(name);
              return found?.forModel === true ? found.record : session.loadedSkill(name)?.record;
            },
            closest: (name) => session.notFound(name).closest ?? [],
            isLoaded: (name) => session.loadedSkill(name) !== undefined,
          },
          // A run checks trust again, and runs a pinned skill only from a copy matching its digest.
          trust,
        };

  let renderRun: (run: SkillRunOutput) => string = renderRunText;
  const runResult = (result: SkillRunResult): SkillToolResult => {
    if (result.status === "refused") return toolFailure(result.message);
    const output = toSkillRunOutput(result);
    return { text: renderRun(output), isError: false, run: output };
  };

  const afterLoad = async (name: string): Promise<void> => {
    if (run === undefined || scripts.has(name)) return;
    const record = session.loadedSkill(name)?.record;
    if (record === undefined) return;
    const found = await listScriptTools(record).catch(() => []);
    const usable = found.filter((t) => tools[t.toolName] === undefined);
    scripts.set(name, usable);
    for (const script of usable) {
      runTools.add(script.toolName);
      add(
        script.toolName,
        tool({
          description: script.description,
          inputSchema: script.inputSchema,
          execute: async (input, { abortSignal }): Promise<SkillToolResult> => {
            const config = runConfig(abortSignal);
            if (config === undefined || session.loadedSkill(name) === undefined) {
              return toolFailure(`${script.toolName} is only available while skill '${name}' is loaded.`);
            }
            const refused = await untrusted(config.lookup.getSkill(name));
            if (refused !== undefined) return refused;
            return runResult(await runScriptTool(script, input, config));
          },
        }),
      );
    }
  };

  const visibleNames = session.visibleSkills().map((r) => r.name);
  const profile = PROFILES[profileName]({
    session,
    nameSchema: (description) => skillNameSchema(visibleNames, description),
    afterLoad,
    ...(run === undefined
      ? {}
      : {
          run: {
            setup: run,
            execute: async (request, abortSignal, options) => {
              const config = runConfig(abortSignal);
              if (config === undefined)
                return { status: "refused", name: request.name, message: "no executor" };
              const reason = await untrustedReason(config.lookup.getSkill(request.name));
              if (reason !== undefined) return { status: "refused", name: request.name, message: reason };
              return runSkillCommand(
                request,
                options?.skillLinks === true ? { ...config, skillLinks: true } : config,
              );
            },
            viewDir: (name) => path.join(run.environment.workspace.skillsDir, sanitizeName(name)),
            workDir: run.environment.workspace.workDir,
            context: () => runConfig() as SkillRunConfig,
          },
        }),
  });
  if (profile.renderRun !== undefined) renderRun = profile.renderRun;
  // A session may offer only some of its profile's tools (trpc's WithAllowedSkillTools).
  const offered = (name: string): boolean => session.profile.skillTools?.includes(name) ?? true;
  for (const [name, t] of Object.entries(profile.tools)) if (offered(name)) add(name, t);
  const profileToolNames = Object.keys(profile.tools).filter(offered);

  add(
    "skill_search",
    tool({
      description:
        "Search all skills (including those the catalog could not list) by what they do. Returns names and descriptions, best first.",
      inputSchema: z.object({
        query: z.string().describe("A few keywords describing the task."),
        limit: z.number().int().positive().max(50).optional().describe("Most results. Default 10."),
      }),
      execute: async (input): Promise<SkillToolResult> => {
        const hits = await session.search(input.query, input.limit ?? 10);
        if (hits.length === 0) return toolSuccess(`No skills match '${input.query}'. Try other keywords.`);
        return toolSuccess(
          hits.map((h) => `- ${h.name}: ${h.description}${h.loaded ? " (loaded)" : ""}`).join("\n"),
        );
      },
    }),
  );

  // The profile's own command tools (trpc's interactive sessions; its skill_run replaces the default).
  const ownRunTools = run === undefined ? [] : Object.keys(profile.runTools ?? {}).filter(offered);
  for (const name of ownRunTools) {
    const t = profile.runTools?.[name];
    if (t === undefined) continue;
    runTools.add(name);
    add(name, t);
  }
  if (run !== undefined && offered("skill_run") && !ownRunTools.includes("skill_run")) {
    runTools.add("skill_run");
    add(
      "skill_run",
      createSkillRunTool({
        session,
        approval: options.approval,
        onProgress: options.onProgress,
        runConfig,
        untrusted,
        runResult,
        param: profile.runParam ?? "name",
      }),
    );
  }

  const skillToolNames = (): string[] => {
    const loaded = session.loadedSkills();
    if (session.renderer.catalogStats().visible === 0 && loaded.length === 0) return [];
    const names = [...profileToolNames];
    if (session.renderer.searchOffered()) names.push("skill_search");
    if (run !== undefined && offered("skill_run")) names.push("skill_run");
    for (const name of ownRunTools) if (name !== "skill_run") names.push(name);
    for (const name of loaded) for (const script of scripts.get(name) ?? []) names.push(script.toolName);
    return names;
  };
  // Skills active for gating: the loaded ones, plus (AgentScope) those with a file read still in context.
  const activeSkills = (): string[] => {
    const loaded = session.loadedSkills();
    if (profile.readActivates !== true) return loaded;
    const reading = session.renderer
      .render()
      .blocks.flatMap((b) => (b.kind === "read" && b.skill !== undefined ? [b.skill] : []));
    return [...new Set([...loaded, ...reading])];
  };
  const forcedNames = (): ReadonlySet<string> => {
    const forced = options.forcedSkills;
    return new Set(typeof forced === "function" ? forced() : (forced ?? []));
  };
  const gating = (): ActiveTools => {
    const names = skillToolNames();
    if (options.registry === undefined) return { active: names, preapproved: [], reasons: {} };
    const forced = forcedNames();
    return computeActiveTools({
      registry: options.registry,
      loadedSkills: activeSkills().map((name) => {
        const record = session.loadedSkill(name)?.record ?? session.catalog.get(name);
        const type = record?.extras.type;
        return {
          name,
          allowedTools: record?.allowedTools,
          toolList: record?.extras.tool_list,
          forced: forced.has(name),
          type: typeof type === "string" ? type : undefined,
          untrusted: record !== undefined && !mayNow(trust, record, "pre-approve-tools"),
        };
      }),
      skillToolNames: names,
      ...(options.policy !== undefined ? { policy: options.policy } : {}),
      ...(options.gating === undefined && options.serverTools !== undefined
        ? { serverTools: options.serverTools }
        : { gating: options.gating ?? defaultGating(profileName) }),
    });
  };

  /**
   * The first active skill, among the trusted or the untrusted ones as `trusted` says, whose bare
   * `allowed-tools` entry names `tool`.
   */
  const grantOf = (tool: RegisteredTool, trusted: boolean) => {
    for (const name of activeSkills()) {
      const record = session.loadedSkill(name)?.record ?? session.catalog.get(name);
      if (record === undefined || mayNow(trust, record, "pre-approve-tools") !== trusted) continue;
      for (const raw of record.allowedTools ?? []) {
        const entry = parseAllowedTool(raw);
        if (entry !== undefined && entry.pattern === undefined && matchesAllowedTool(entry, tool))
          return { name, record, entry };
      }
    }
    return undefined;
  };
  // A bare `allowed-tools` entry of an active, trusted skill pre-approves the tool (Claude Code's meaning).
  const skillGrants = (tool: RegisteredTool): string | undefined => {
    const grant = grantOf(tool, true);
    return grant && `in the allowed-tools of active skill '${grant.name}' (${grant.entry.raw})`;
  };
  // An untrusted skill's allowed-tools grant nothing without asking; the question or refusal says how to trust it.
  const untrustedGrant = (tool: RegisteredTool): { skill: string; howToTrust: string } | undefined => {
    const grant = grantOf(tool, false);
    return grant && { skill: grant.name, howToTrust: trust.howToTrust(grant.record) };
  };
  const approvals =
    options.approval === undefined
      ? undefined
      : createToolApprovals(options.approval, skillGrants, untrustedGrant);

  return {
    profile: profileName,
    tools,
    allTools: () => ({
      ...Object.fromEntries(
        (options.registry?.all() ?? []).map((t) => [
          t.name,
          approvals === undefined ? t.tool : approvals.wrap(t),
        ]),
      ),
      ...tools,
    }),
    preapproval(name) {
      const registered = options.registry?.get(name);
      if (registered === undefined) return undefined;
      return approvals === undefined ? "approvals are not configured" : approvals.preapproval(registered);
    },
    deferredApproval(name) {
      const registered = options.registry?.get(name);
      return options.approval?.defer === true &&
        registered !== undefined &&
        approvals?.preapproval(registered) === undefined
        ? "user-approval"
        : "not-applicable";
    },
    defersApprovals: options.approval?.defer === true,
    grantApproval(toolCallId) {
      approvals?.grant(toolCallId);
    },
    activeToolNames: () => gating().active,
    gating,
    observeHistory: (contents) => profile.observeHistory?.(contents),
    systemPrompt: () => {
      const base = session.renderer.systemPrompt();
      const forced = [...forcedNames()];
      return profile.systemPrompt === undefined || forced.length === 0
        ? base
        : profile.systemPrompt(base, forced);
    },
    async prepare() {
      for (const name of session.loadedSkills()) await afterLoad(name);
    },
    jsonSchemas() {
      const out: Record<string, unknown> = {};
      for (const [name, t] of Object.entries(tools)) {
        if (t.inputSchema instanceof z.ZodType) out[name] = z.toJSONSchema(t.inputSchema, { io: "input" });
      }
      return out;
    },
    effects: (name) =>
      tools[name] === undefined
        ? undefined
        : toolEffects(runTools.has(name) ? "run" : "disclose", run?.environment.executor.kind),
  };
}
