/**
 * What a compatibility profile is: a mapping from one {@link SkillSession} to the tool names, parameter
 * shapes and messages of one seed system. Profiles never fork session state.
 */
import type { Tool } from "ai";
import type { SkillSession } from "../context/skill-session.js";
import type { RunSetup, SkillRunConfig } from "../exec/run-config.js";
import type { SkillRunRequest, SkillRunResult } from "../exec/run-skill-command.js";
import type { SkillRunOutput } from "./skill-run-output.js";

export type { ProfileName } from "../context/profile-name.js";

/** What a profile builder receives. */
export interface ProfileContext {
  session: SkillSession;
  /** Schema for a skill-name parameter (enum of visible names when ≤ 256). */
  nameSchema(description: string): import("zod").ZodType<string>;
  /** Call after a successful load (offers the skill's script tools). */
  afterLoad(name: string): Promise<void>;
  /**
   * Command execution in the session's workspace (the `skill_run` machinery: sandbox, limits, policy,
   * redaction, trust), for profiles with a run or shell tool of their own; absent when no executor is configured.
   */
  run?: ProfileRun;
}

/** See {@link ProfileContext.run}. */
export interface ProfileRun {
  /** The session's run environment (workspace, executor, secrets, artifacts) and policy. */
  setup: RunSetup;
  /** Runs `request` as `skill_run` would (in the skill's staged folder unless `cwd` says otherwise). */
  execute(
    request: SkillRunRequest,
    abortSignal?: AbortSignal,
    /** `skillLinks`: stage the skill as trpc does (see `SkillRunConfig.skillLinks`). */
    options?: { skillLinks?: boolean },
  ): Promise<SkillRunResult>;
  /** Absolute path of a skill's staged folder in the workspace, as commands see it. */
  viewDir(name: string): string;
  /** Absolute path of the workspace's `work/` folder. */
  workDir: string;
  /** The whole run configuration (with the session's skill lookup) for runs the profile drives itself. */
  context(): SkillRunConfig;
}

/**
 * The tools of a profile. Its tool names, catalog format, doc rule and load-call shape are the session's
 * (`session.profile`, fixed when the session is created).
 */
export interface ProfileTools {
  /** Name of the skill parameter of `skill_run` (trpc: `skill`). Default `name`. */
  runParam?: "name" | "skill";
  /** The text the model reads of a run (`skill_run`, script tools). Default: `renderRunText`. */
  renderRun?: (run: SkillRunOutput) => string;
  /**
   * True when reading one of a skill's files through the profile's tools activates the skill for tool
   * gating (its `<skill>_skill_tools` group and bound groups), as AgentScope's loader does on any success.
   */
  readActivates?: boolean;
  /**
   * The system prompt the model reads, from the session's and the skills the user forced for the task
   * (AWorld's `<forced_skill_contract>`). Default: the session's, unchanged.
   */
  systemPrompt?: (base: string, forced: readonly string[]) => string;
  /**
   * Reads the conversation before each step (the text of each message, oldest first), e.g. OmniEmployee's
   * rule that unloads skills the recent messages no longer mention. Default: nothing.
   */
  observeHistory?: (contents: readonly string[]) => void;
  /** The profile's tools, by the names the model calls them; each returns a `SkillToolResult`. */
  tools: Record<string, Tool>;
  /**
   * The profile's own tools that run commands (offered only with execution; a `skill_run` here replaces
   * the default one). Each returns a `SkillToolResult`.
   */
  runTools?: Record<string, Tool>;
}
