/**
 * The schema of `skillrt.config.json` (and `~/.skillrt/config.json`): one file, one schema, read by
 * {@link loadSkillrtConfig} for every part of skillrt that takes settings from it.
 *
 * ```json
 * {
 *   "model":   { "provider": "anthropic", "model": "claude-sonnet-4-5", "contextWindow": 200000 },
 *   "session": { "activeSkills": ["style-guide"], "allow": ["team-*"], "deny": ["*-experimental"] },
 *   "exec":    { "executor": "sandbox", "timeoutSeconds": 120, "requireLoaded": true,
 *                "allowCommands": ["python3", "node"], "denyCommands": ["curl"], "hostDirs": ["data"] },
 *   "skills":  { "weather": { "env": { "API_TOKEN": "${env:WEATHER_TOKEN}" } } },
 *   "roots":   ["vendor/skills", "https://example.com/skills.tar.gz#sha256=…",
 *               { "source": "git+https://github.com/org/skills#v1.2.0" }]
 * }
 * ```
 */
import { z } from "zod";
import { AGENT_NAME, AgentSpec } from "./agent-definition.js";
import { McpServersConfig } from "./mcp-servers-config.js";
import { ModelCallOptions } from "./model-call-options.js";
import { PROVIDER_NAMES } from "./model-config.js";
import { ToolsConfig } from "./tools-config.js";

/** Provider packages skillrt drives (all through the AI SDK). */
export const ProviderName = z.enum(PROVIDER_NAMES);
/** Provider packages skillrt drives (all through the AI SDK). */
export type ProviderName = z.infer<typeof ProviderName>;

/** The `model` section (every field optional). */
export const ModelConfigFile = z
  .object({
    provider: ProviderName.optional(),
    /** Model id, e.g. `gpt-4o-mini`, `claude-sonnet-4-5`, `glm-4.6`, `llama3.2`. */
    model: z.string().min(1).optional(),
    baseURL: z.string().url().optional(),
    /** Name of the environment variable holding the API key (keys are never stored in the file). */
    apiKeyEnv: z.string().min(1).optional(),
    /** The model's context window in tokens. Unset: unknown (the catalog budget is then 2,000 tokens). */
    contextWindow: z.number().int().positive().optional(),
    /** Most attempts per provider request (retries of 429/5xx included). */
    maxAttempts: z.number().int().min(1).max(20).optional(),
    /** Most seconds to wait for the first byte of the model's answer (default 300). */
    firstByteTimeoutSeconds: z.number().positive().optional(),
    /** Most seconds of silence between two chunks of a streamed answer (default 120). */
    idleTimeoutSeconds: z.number().positive().optional(),
    /** Most output tokens of one model call (default: the provider's; skillrt stops a call past 32,000). */
    maxOutputTokens: z.number().int().positive().optional(),
    /** Most seconds one turn may take, model calls and tools together (default 1800). */
    turnTimeoutSeconds: z.number().positive().optional(),
    /** AI SDK call options of every model call (sampling, headers, provider options). */
    callOptions: ModelCallOptions.optional(),
    /**
     * Providers that take a call, in order, when the one before fails with a retryable error (408, 409,
     * 429, 5xx, no answer) after its retries. Each names its provider, model and endpoint; the key comes
     * from `apiKeyEnv` (else the provider's usual variable); limits are the main model's unless given.
     */
    fallback: z
      .array(
        z
          .object({
            provider: ProviderName,
            model: z.string().min(1),
            baseURL: z.string().url().optional(),
            apiKeyEnv: z.string().min(1).optional(),
            maxAttempts: z.number().int().min(1).max(20).optional(),
          })
          .strict(),
      )
      .max(8)
      .optional(),
  })
  .strict();
/** The `model` section (every field optional). */
export type ModelConfigFile = z.infer<typeof ModelConfigFile>;

const SkillName = z.string().min(1);
const NameGlob = z.string().min(1);

/** The `session` section: which skills a session starts with and which the model may see. */
export const SessionConfigFile = z
  .object({
    /** Skills loaded when a session starts (like `active: true` in their frontmatter). */
    activeSkills: z.array(SkillName).optional(),
    /** Name globs (picomatch) of the skills the model may see; unset: all. */
    allow: z.array(NameGlob).optional(),
    /** Name globs hidden from the model and from slash commands; wins over `allow`. */
    deny: z.array(NameGlob).optional(),
    /**
     * How long loaded skills stay: `session`, `turn` (unloaded when the next user turn starts) or `once`
     * (after the one request that showed them). Default `turn` under the trpc profile, else `session`.
     */
    loadMode: z.enum(["session", "turn", "once"]).optional(),
    /** trpc profile: most skills its overview lists with descriptions (trpc's `WithMaxOverviewSkills`). */
    maxOverviewSkills: z.number().int().positive().optional(),
    /** trpc profile: most skills loaded at once; past it the least recently used is unloaded. */
    maxLoadedSkills: z.number().int().positive().optional(),
    /** The profile's tools offered to the model, by name (trpc's `WithAllowedSkillTools`). Default: all. */
    skillTools: z.array(z.string().min(1)).optional(),
    /**
     * `false`: no preamble before the catalog (under the trpc profile: no guidance blocks after its
     * overview, trpc's `WithSkillsToolingGuidance("")`). Default true.
     */
    preamble: z.boolean().optional(),
  })
  .strict();
/** The `session` section. */
export type SessionConfigFile = z.infer<typeof SessionConfigFile>;

/** The `exec` section: how `skill_run` (and `skillrt run`) execute commands. */
export const ExecConfigFile = z
  .object({
    /** `auto` (default), `sandbox`, `local` or `container`. A command-line `--executor` wins. */
    executor: z.enum(["auto", "sandbox", "local", "container"]).optional(),
    /** Default timeout of a run in seconds (default 300); a command-line `--timeout` wins. */
    timeoutSeconds: z.number().positive().optional(),
    /** Refuse `skill_run` for a skill the model has not loaded. Default false. */
    requireLoaded: z.boolean().optional(),
    /** Executables a run may start (basenames); unset or empty means every executable not denied. */
    allowCommands: z.array(z.string().min(1)).optional(),
    /** Executables a run may never start; wins over `allowCommands`. */
    denyCommands: z.array(z.string().min(1)).optional(),
    /** Directories `host://` inputs may come from (relative paths: from the file's directory). Default: the cwd. */
    hostDirs: z.array(z.string().min(1)).optional(),
    /** Directory of the versioned artifact store (relative: from the file's directory). Default `<cwd>/.skillrt/artifacts`. */
    artifactsDir: z.string().min(1).optional(),
    /** Run a trusted skill's `` !`cmd` `` and ```` ```! ```` blocks when it loads, output in place. Default true. */
    shellPreRender: z.boolean().optional(),
  })
  .strict();
/** The `exec` section. */
export type ExecConfigFile = z.infer<typeof ExecConfigFile>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BLOCKED_ENV = /^(LD_.*|DYLD_.*|OPENSSL_CONF|BASH_ENV|ENV|PATH|IFS|BASH_FUNC_.*)$/;

/** One entry of the `skills` section: settings of the skill with that name. */
export const SkillConfigEntry = z.looseObject({
  /** Variables (secrets) that reach this skill's runs only; `${env:NAME}` takes a host variable. */
  env: z
    .record(
      z
        .string()
        .regex(ENV_NAME, "must be a valid environment variable name")
        .refine((n) => !BLOCKED_ENV.test(n), "is not allowed (it could change how programs load)"),
      z.string(),
    )
    .optional(),
});
/** One entry of the `skills` section. */
export type SkillConfigEntry = z.infer<typeof SkillConfigEntry>;

/** The `store` section: where conversations are saved. `--store` and `SKILLRT_STORE_URL` win. */
export const StoreConfigFile = z
  .object({
    /**
     * `postgres://USER@HOST:PORT/DATABASE` (keep the password in `PGPASSWORD`, not in the file),
     * `sqlite:PATH` (relative: from the file's directory). Default `.skillrt/sessions.db` under the cwd.
     */
    url: z.string().min(1).optional(),
    /** Postgres schema holding skillrt's tables. Default `skillrt`. */
    schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case SQL identifier")
      .optional(),
    /**
     * What a conversation keeps of its workspace (`work/`, `out/`) between turns: caps on one file's bytes
     * (default 16 MiB, at most 256 MiB), a conversation's bytes (default 64 MiB, at most 1 GiB) and files
     * (default 1,000, at most 10,000); `false` keeps none. See docs/workspaces.md.
     */
    files: z
      .union([
        z.literal(false),
        z
          .object({
            maxFileBytes: z
              .number()
              .int()
              .min(0)
              .max(256 * 1024 ** 2)
              .optional(),
            maxTotalBytes: z
              .number()
              .int()
              .min(0)
              .max(1024 ** 3)
              .optional(),
            maxFiles: z.number().int().min(0).max(10_000).optional(),
          })
          .strict(),
      ])
      .optional(),
  })
  .strict();
/** The `store` section. */
export type StoreConfigFile = z.infer<typeof StoreConfigFile>;

/**
 * One entry of the top-level `roots` list: a folder, an archive (`.zip`, `.tar`, `.tar.gz`, `.tgz`), an
 * `http(s)://` archive or `SKILL.md` URL, or `git+https://…[#ref]` / `git+file://…[#ref]`, optionally
 * pinned with `#sha256=<hex>` — or the same as `{ "source": …, "sha256": … }`. Relative paths are from the
 * file's directory.
 */
export const RootConfigEntry = z.union([
  z.string().min(1),
  z
    .object({
      source: z.string().min(1),
      sha256: z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex digits")
        .optional(),
    })
    .strict(),
]);
/** One entry of the `roots` list. */
export type RootConfigEntry = z.infer<typeof RootConfigEntry>;

/**
 * The `delegation` section: how far subagents may fan out. Each limit is capped here (a config file cannot
 * lift it past the cap; code can, through `createSkillAgent({ delegation })`), and when several files set
 * one, the lowest wins, so a project's file can only tighten the user's.
 */
export const DelegationConfigFile = z
  .object({
    /** Deepest chain of subagents (a child of the top agent is at depth 1; 0: no delegation). Default 2. */
    maxDepth: z.number().int().min(0).max(8).optional(),
    /** Most subagents started during one turn, counting every level of nesting. Default 16. */
    maxPerTurn: z.number().int().min(0).max(256).optional(),
    /** Most subagents of one agent running at once. Default 4. */
    concurrency: z.number().int().min(1).max(32).optional(),
  })
  .strict();
/** The `delegation` section. */
export type DelegationConfigFile = z.infer<typeof DelegationConfigFile>;

/** A whole config file. Unknown top-level keys are allowed (and ignored); known sections are checked. */
export const SkillrtConfigFile = z.looseObject({
  store: StoreConfigFile.optional(),
  model: ModelConfigFile.optional(),
  session: SessionConfigFile.optional(),
  exec: ExecConfigFile.optional(),
  /** Roots scanned besides the default ones (not with `--root`, which replaces both). */
  roots: z.array(RootConfigEntry).optional(),
  /** Skill name → its settings. */
  skills: z.record(z.string(), SkillConfigEntry).optional(),
  /** MCP servers whose tools the agent offers (Claude Desktop's shape). */
  mcpServers: McpServersConfig.optional(),
  /** Gating and approvals of host tools. */
  tools: ToolsConfig.optional(),
  /** Subagents by name (besides the `agents/*.md` files next to the skill roots, which these override). */
  agents: z
    .record(z.string().regex(AGENT_NAME, "must be lowercase letters, digits and hyphens"), AgentSpec)
    .optional(),
  /** Limits of subagents: depth, per turn, at once. */
  delegation: DelegationConfigFile.optional(),
  /**
   * Trust of project and remote roots without `skillrt trust`: `true` trusts every root, a list the roots
   * (folders, URLs) named. Read from the user's `~/.skillrt/config.json` only: a project's own file cannot
   * trust itself.
   */
  trust: z.union([z.boolean(), z.array(z.string().min(1))]).optional(),
});
/** A whole config file. */
export type SkillrtConfigFile = z.infer<typeof SkillrtConfigFile>;
