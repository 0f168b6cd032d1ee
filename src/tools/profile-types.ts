/**
 * What a compatibility profile is: a mapping from one {@link SkillSession} to the tool names, parameter
 * shapes and messages of one seed system. Profiles never fork session state.
 */
import type { Tool } from "ai";
import type {
  CatalogFormat,
  LoadInputShape,
  SkillToolNames,
  SystemLayout,
} from "../context/session-types.js";
import type { SkillSession } from "../context/skill-session.js";
import type { SkillRunOutput } from "./skill-run-output.js";

/** Names of the built-in profiles. */
export type ProfileName = "skillrt" | "claude" | "trpc" | "agentscope" | "omni" | "aworld";

/** What a profile builder receives. */
export interface ProfileContext {
  session: SkillSession;
  /** Schema for a skill-name parameter (enum of visible names when ≤ 256). */
  nameSchema(description: string): import("zod").ZodType<string>;
  /** Call after a successful load (offers the skill's script tools). */
  afterLoad(name: string): Promise<void>;
}

/** The tools of a profile. */
export interface ProfileTools {
  /** Names the preamble and session messages use. */
  names: SkillToolNames;
  /** Catalog format the profile's seed system uses (applied when the session did not set one). */
  catalogFormat?: CatalogFormat;
  /** Which files are docs for this profile. Default: `.md` / `.txt`. */
  isDoc?: (path: string) => boolean;
  /** Name of the skill parameter of `skill_run` (trpc: `skill`). Default `name`. */
  runParam?: "name" | "skill";
  /** The text the model reads of a run (`skill_run`, script tools). Default: `renderRunText`. */
  renderRun?: (run: SkillRunOutput) => string;
  /**
   * Input of the profile's load tool for a skill (and arguments, where the tool takes them), used for the
   * synthetic load calls of user and `init()` loads. Default `{ name, args? }`.
   */
  loadInput?: LoadInputShape;
  /** Layout of loaded content in `system` placement (trpc: `trpc`). Default `omni`. */
  systemLayout?: SystemLayout;
  /**
   * True when reading one of a skill's files through the profile's tools activates the skill for tool
   * gating (its `<skill>_skill_tools` group and bound groups), as AgentScope's loader does on any success.
   */
  readActivates?: boolean;
  /** The profile's tools, by the names the model calls them; each returns a `SkillToolResult`. */
  tools: Record<string, Tool>;
}
