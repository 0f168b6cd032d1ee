/**
 * What a compatibility profile is: a mapping from one {@link SkillSession} to the tool names, parameter
 * shapes and messages of one seed system. Profiles never fork session state.
 */
import type { Tool } from "ai";
import type { SkillSession } from "../context/skill-session.js";
import type { SkillRunContext, SkillRunRequest, SkillRunResult } from "../exec/run-skill-command.js";
import type { SkillRunSetup } from "./create-skill-tools.js";
import type { SkillRunOutput } from "./skill-run-output.js";

export type { ProfileName } from "../context/profile-name.js";

/** What a profile builder receives. */
export interface ProfileContext {
  session: SkillSession;
  /** Schema for a skill-name parameter (enum of visible names when ≤ 256). */
  nameSchema(description: string): import("zod").ZodType<string>;
  /** Call after a successful load (offers the skill's script tools). */
  afterLoad(name: string): Promise<void>;
  /** Execution, when configured: the run setup and `skill_run`'s semantics (`runSkillCommand`) over it. */
  run?: {
    setup: SkillRunSetup;
    execute(request: SkillRunRequest, abortSignal?: AbortSignal): Promise<SkillRunResult>;
    /** The full run context (skill lookup, loaded check) for runs the profile drives itself. */
    context(): SkillRunContext;
  };
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
  /** The profile's tools, by the names the model calls them; each returns a `SkillToolResult`. */
  tools: Record<string, Tool>;
  /**
   * The profile's own tools that run commands (offered only with execution; a `skill_run` here replaces
   * the default one). Each returns a `SkillToolResult`.
   */
  runTools?: Record<string, Tool>;
}
