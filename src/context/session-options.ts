/**
 * The options of a {@link SkillSession} (`createSkillSession`), with the names of where loaded content goes
 * (placement), how the catalog is written and how `system` placement lays out loaded skills.
 */
import type { Catalog, SkillRecord } from "../catalog/types.js";
import type { LoadMode } from "./load-mode-name.js";
import type { ProfileName } from "./profile-name.js";
import type { SessionEvent } from "./session-event.js";
import type { TokenCounter } from "./token-counter.js";

/** Where loaded content is rendered. `history` (default): in tool results. `system`: in the system prompt every step. */
export type Placement = "history" | "system";

/** L1 catalog formats. `list` (default) is `- name: description`. */
export type CatalogFormat =
  | "list"
  | "markdown"
  | "xml"
  | "agentskills"
  | "aworld"
  | "skillbox"
  | "skillbox-exec";

/**
 * How `system` placement lays out loaded content. `omni` (default, OmniEmployee): "## Loaded Skill
 * Instructions" with `### Skill: <name>` sections, then "## Loaded Skill References". `trpc` (trpc-agent-go):
 * per skill, alphabetically, `[Loaded] <name>` and the body, a `Docs loaded: …` line, then `[Doc] <path>`
 * blocks. `aworld` (AWorld's SkillsNeuron): per active skill, `<skill_file_content>` holding its
 * `<skill_usage>`; docs as in `omni`.
 */
export type SystemLayout = "omni" | "trpc" | "aworld";

/** Options of {@link createSkillSession}. Every field is optional except `catalog`. */
export interface SkillSessionOptions {
  catalog: Catalog;
  /** Conversation id (also `${SESSION_ID}` in bodies). Default: a random UUID. */
  id?: string;
  /** Agent namespace; sessions in different namespaces share nothing. Default `default`. */
  namespace?: string;
  /** Default: o200k_base via `createTokenCounter()`. */
  tokenCounter?: TokenCounter;
  /** Default `history`. */
  placement?: Placement;
  /**
   * The tool profile the model sees: the preamble and the messages written for the model name its tools,
   * and it picks the catalog format, `system` layout, doc rule and load-call shape (`createSkillTools` builds
   * this profile's tools). Default `skillrt`.
   */
  profile?: ProfileName;
  /** `false` when no `skill_run` is offered (no executor): the preamble and messages do not name it. Default true. */
  runTool?: boolean;
  /**
   * The profile's tools offered to the model, by name (trpc's `WithAllowedSkillTools`); the others are not
   * registered, and the `trpc` overview's guidance blocks follow the set. Default: all of them.
   */
  skillTools?: string[];
  /**
   * `trpc` profile: most skills its overview lists with their descriptions (trpc's `WithMaxOverviewSkills`);
   * the rest are named under "Additional skills". Default: as many as the catalog budget holds.
   */
  maxOverviewSkills?: number;
  /**
   * How long loaded skills stay: `session` (until unloaded), `turn` (unloaded at the start of the next user
   * turn) or `once` (unloaded after the one model request that showed them); skills `init()` loads stay.
   * Default `turn` under the `trpc` profile (trpc-agent-go's default), else `session`.
   */
  loadMode?: LoadMode;
  /**
   * Most skills loaded at once under the `trpc` profile: a load past it unloads the least recently loaded or
   * doc-selected skill (trpc's `WithMaxLoadedSkills`; `maxActive` refuses instead). Default: no limit.
   */
  maxLoadedSkills?: number;
  /** Default: the profile's (`list`; `markdown` for omni, `xml` for agentscope). */
  catalogFormat?: CatalogFormat;
  /**
   * Model context window in tokens. Default 128,000, treated as unknown: leave it out when neither the user
   * nor the configuration gave one (it changes the catalog budget default; see `ledger().contextWindowKnown`).
   */
  contextWindow?: number;
  /** Fraction of the window above which least-recently-used content is evicted. Default 0.9. */
  contextThreshold?: number;
  /** Largest rendered skill body (and single doc) in tokens; larger ones are refused. Default 8,000. */
  skillBudget?: number;
  /** Tokens for preamble + catalog. Default 1% of `contextWindow` when it is given, else (window unknown) 2,000. */
  catalogBudget?: number;
  /** Layout of loaded content in `system` placement. Default: the profile's (`omni`; `trpc` for trpc). */
  systemLayout?: SystemLayout;
  /** Name globs (picomatch); when given, only matching skills are visible to the model. */
  allow?: string[];
  /** Name globs hidden from the model (wins over `allow`). */
  deny?: string[];
  /** Skills loaded by `init()` besides those with `active: true`. */
  activeSkills?: string[];
  /** `skill_search` is always offered above this many visible skills (and whenever the catalog left something out). Default 100. */
  searchThreshold?: number;
  /**
   * Most skills loaded at once (`SKILLS_MAX_ACTIVE`). A model's load beyond it fails with
   * `too-many-active`, asking it to unload one first; user loads and `init()` are not capped. Default: no cap.
   */
  maxActive?: number;
  /** Most files listed in a loaded skill's `<skill_resources>`. Default 50. */
  maxResources?: number;
  /**
   * Per-skill environments from config (`loadSkillEnvConfig().skills`): a variable set there counts as set
   * when a load checks the skill's declared requirements. Only names ever reach the model. Default: none.
   */
  skillEnv?: Record<string, Record<string, string>>;
  /**
   * The host variables skills' declared requirements (`requires`) are checked against: its variables,
   * `PATH` for the programs and `HOME` for `~/` config paths. `false`: not checked (no skill is reported as
   * lacking anything). Default `process.env`. `createSkillAgent` passes its own `env` option, else `false`.
   */
  requirementsEnv?: Record<string, string | undefined> | false;
  /**
   * Transforms a skill's body when it is loaded, before `$ARGUMENTS` are substituted: the engine's shell
   * pre-render (`` !`cmd` `` and ```` ```! ```` blocks of trusted skills). Default: the body as written.
   */
  preRender?: (record: SkillRecord, body: string) => Promise<string>;
  /**
   * Where the session's commands see a skill's folder (e.g. `<workspace>/skills/<name>` in the sandbox), for
   * renderings that name it for commands (OmniEmployee's `uv run` hints). Default: the skill's own folder.
   */
  skillRunDir?: (name: string) => string;
  /** Receives every event. */
  onEvent?: (event: SessionEvent) => void;
  /**
   * Custom preamble (replaces the default text); `""` renders the catalog without one. Under the `trpc`
   * profile it is trpc's guidance switch: `""` leaves the guidance blocks out of the overview
   * (`WithSkillsToolingGuidance("")`), a text replaces them and comes before it (`WithSkillsProtocolGuidance`).
   */
  preamble?: string;
}
