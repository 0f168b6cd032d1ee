/**
 * What a session knows of the tool profile the model sees: the tool names its preamble and its messages
 * for the model use, the catalog format and `system` layout the profile's seed system renders, which files
 * count as docs, and the input of the profile's load tool (for synthetic load calls). The profile is fixed
 * when the session is created; the tools (`createSkillTools`) follow it and never change it.
 */
import { SkillrtError } from "../errors/skillrt-error.js";
import { isDefaultDoc, isOmniReference } from "./doc-rules.js";
import type { LoadMode } from "./load-mode-name.js";
import { PROFILE_NAMES, type ProfileName } from "./profile-name.js";
import { DEFAULT_TOOL_NAMES } from "./render-preamble.js";
import type { CatalogFormat, SystemLayout } from "./session-options.js";
import type { LoadInputShape, SkillToolNames } from "./tool-call-shape.js";
import type { TrpcToolFlags } from "./trpc-guidance.js";

/** A profile as the session renders it. */
export interface SessionProfile {
  name: ProfileName;
  /** Tool names the preamble and session messages use (without `run` when no `skill_run` is offered). */
  toolNames: SkillToolNames;
  /** Catalog format of the profile's seed system (the session's `catalogFormat` option wins). */
  catalogFormat: CatalogFormat;
  /** `system` placement layout of the profile's seed system (the session's `systemLayout` option wins). */
  systemLayout: SystemLayout;
  /** Which files are docs (selectable, listed by `listDocs`). */
  isDoc(path: string): boolean;
  /** Input of the profile's load tool for `name` (and arguments, where the tool takes them). */
  loadInput: LoadInputShape;
  /**
   * The profile's own tools the model is offered, when a session limits them (`skillTools`); undefined:
   * all of them.
   */
  skillTools?: readonly string[];
  /** How long loaded skills stay (`load-mode.ts`): `turn` for `trpc`, else `session`, unless the session says. */
  loadMode: LoadMode;
  /**
   * Most skills loaded at once; a load past it unloads the least recently touched one (trpc's
   * `WithMaxLoadedSkills`). Undefined: no such limit.
   */
  maxLoadedSkills?: number;
  /** `trpc` only: which of trpc's tools are registered; its overview and guidance blocks depend on them. */
  trpcTools?: TrpcToolFlags;
}

type ProfileVocabulary = Omit<
  SessionProfile,
  | "name"
  | "catalogFormat"
  | "systemLayout"
  | "isDoc"
  | "skillTools"
  | "trpcTools"
  | "loadMode"
  | "maxLoadedSkills"
> &
  Partial<Pick<SessionProfile, "catalogFormat" | "systemLayout" | "isDoc">>;

const PROFILES: Record<ProfileName, ProfileVocabulary> = {
  skillrt: {
    toolNames: DEFAULT_TOOL_NAMES,
    loadInput: (name, args) => (args === undefined ? { name } : { name, args }),
  },
  claude: {
    toolNames: { load: "Skill", read: "skill_read", search: "skill_search", run: "skill_run" },
    loadInput: (skill, args) => (args === undefined ? { skill } : { skill, args }),
  },
  trpc: {
    toolNames: {
      load: "skill_load",
      selectDocs: "skill_select_docs",
      search: "skill_search",
      run: "skill_run",
    },
    loadInput: (name) => ({ skill: name }),
    systemLayout: "trpc",
  },
  agentscope: {
    toolNames: {
      load: "load_skill_through_path",
      search: "skill_search",
      run: "skill_run",
      loadArgument: 'its skill id (the <skill-id> of its entry) and path "SKILL.md"',
    },
    catalogFormat: "skillbox",
    loadInput: (name) => ({ skillId: name, path: "SKILL.md" }),
  },
  omni: {
    toolNames: {
      load: "load_skill",
      selectDocs: "load_skill_reference",
      unload: "unload_skill",
      search: "skill_search",
      run: "skill_run",
    },
    catalogFormat: "markdown",
    isDoc: isOmniReference,
    loadInput: (name) => ({ name }),
  },
  aworld: {
    toolNames: {
      load: "active_skill",
      unload: "offload_skill",
      read: "read_skill_file",
      search: "skill_search",
      run: "skill_run",
    },
    catalogFormat: "aworld",
    systemLayout: "aworld",
    loadInput: (name) => ({ skill_name: name }),
  },
};

/**
 * The built-in profile `name` (default `skillrt`) as a session renders it. `run: false` (no `skill_run`
 * offered, e.g. no executor) leaves the run tool out of its names; `catalogFormat` / `systemLayout`, when
 * given, win over the profile's own.
 */
export function sessionProfile(
  name: ProfileName = "skillrt",
  options: {
    run?: boolean;
    catalogFormat?: CatalogFormat;
    systemLayout?: SystemLayout;
    skillTools?: readonly string[];
    loadMode?: LoadMode;
    maxLoadedSkills?: number;
  } = {},
): SessionProfile {
  const profile = PROFILES[name];
  if (profile === undefined) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Unknown profile '${String(name)}'. Profiles: ${PROFILE_NAMES.join(", ")}.`,
    });
  }
  const { run: _run, ...withoutRun } = profile.toolNames;
  const offered = (tool: string): boolean => options.skillTools?.includes(tool) ?? true;
  const run = options.run !== false && offered("skill_run");
  return {
    name,
    toolNames: run ? profile.toolNames : withoutRun,
    catalogFormat:
      options.catalogFormat ??
      (profile.catalogFormat === "skillbox" && options.run === true ? "skillbox-exec" : undefined) ??
      profile.catalogFormat ??
      "list",
    systemLayout: options.systemLayout ?? profile.systemLayout ?? "omni",
    isDoc: profile.isDoc ?? isDefaultDoc,
    loadInput: profile.loadInput,
    ...(options.skillTools === undefined ? {} : { skillTools: options.skillTools }),
    loadMode: options.loadMode ?? (name === "trpc" ? "turn" : "session"),
    ...(options.maxLoadedSkills === undefined || options.maxLoadedSkills <= 0
      ? {}
      : { maxLoadedSkills: options.maxLoadedSkills }),
    ...(name === "trpc"
      ? {
          trpcTools: {
            load: offered("skill_load"),
            selectDocs: offered("skill_select_docs"),
            listDocs: offered("skill_list_docs"),
            run,
            exec: run && offered("skill_exec"),
          },
        }
      : {}),
  };
}
