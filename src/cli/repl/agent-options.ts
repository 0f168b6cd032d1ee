/** Options shared by `skillrt ask` and `skillrt chat`, and their help text. */
import type { LanguageModel } from "ai";
import type { ModelConfig } from "../../config/model-config.js";
import type { CommandValues } from "../define-command.js";

/** The `parseArgs` option table of `ask` and `chat`. */
export const agentOptions = {
  root: { type: "string", multiple: true },
  refresh: { type: "boolean" },
  session: { type: "string" },
  store: { type: "string" },
  "lock-wait": { type: "string" },
  "save-retry": { type: "string" },
  json: { type: "boolean" },
  placement: { type: "string" },
  profile: { type: "string" },
  "catalog-budget": { type: "string" },
  "context-window": { type: "string" },
  model: { type: "string" },
  provider: { type: "string" },
  "base-url": { type: "string" },
  executor: { type: "string" },
  "max-steps": { type: "string" },
  "model-timeout": { type: "string" },
  "turn-timeout": { type: "string" },
  active: { type: "string", multiple: true },
  skill: { type: "string", multiple: true },
  allow: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
  "tool-gating": { type: "string" },
  "load-mode": { type: "string" },
  "max-overview-skills": { type: "string" },
  "max-loaded-skills": { type: "string" },
  "skill-tools": { type: "string", multiple: true },
  "no-preamble": { type: "boolean" },
  yes: { type: "boolean" },
  trust: { type: "boolean" },
  otel: { type: "boolean" },
} as const;

/** Parsed values of {@link agentOptions}. */
export type AgentOptionValues = CommandValues<typeof agentOptions>;

/** Help text of the shared options (ends with a newline). */
export const AGENT_OPTIONS_HELP = `Options:
  --root DIR             skill folder to scan (repeatable; default: project, user and SKILLS_DIR roots)
  --session ID           save the conversation under ID; an existing ID is resumed (history and loaded skills)
  --store URL            where conversations are saved: postgres://USER@HOST:PORT/DATABASE or sqlite:PATH
                         (env SKILLRT_STORE_URL, config store.url; default .skillrt/sessions.db). A turn on
                         a session another process is in the middle of waits up to 30 s, then fails
  --lock-wait SECONDS    how long a turn waits for another process's turn on the session (default 30)
  --save-retry SECONDS   how long a save that fails (store unreachable, SQLite file locked or unwritable) is
                         retried before giving up (default 30; 0 tries once); a turn still unsaved is kept in
                         a file under the state directory, whose path and how to resume are printed
  --json                 print events as JSON lines instead of text
  --placement MODE       where loaded skills go: history (default) or system
  --profile NAME         tool names: skillrt (default), claude, trpc, agentscope, omni, aworld
  --catalog-budget N     tokens for the skill catalog (default 1% of the context window; 2000 when the window
                         is not configured)
  --context-window N     model context window in tokens (default: model.contextWindow; unknown otherwise,
                         counted as 128000 for eviction and /context)
  --model ID             model id (env AGENT_MODEL)
  --provider NAME        openai-compatible, anthropic or openai (env SKILLRT_PROVIDER)
  --base-url URL         provider endpoint (env OPENAI_BASE_URL / ANTHROPIC_BASE_URL)
  --executor KIND        where skill_run runs commands: auto (default), sandbox, local, container
  --max-steps N          most model calls per turn (default 20)
  --model-timeout S      most seconds the model may stay silent, before its first byte and between chunks;
                         past it the step fails (default model.firstByteTimeoutSeconds 300, idleTimeoutSeconds 120)
  --turn-timeout S       most seconds one turn may take; past it the turn stops, what was streamed is saved, and
                         ask exits 1 (default model.turnTimeoutSeconds, 1800). model.maxOutputTokens caps each
                         model call's answer the same way (default: the provider's; stopped past 32000)
  --active NAME          load skill NAME when the session starts (repeatable; replaces session.activeSkills)
  --skill NAME           force skill NAME for the task: loaded at the start and, under --profile aworld, named
                         in the forced-skill contract; instruction-only forced skills switch host tools off
                         (repeatable)
  --allow GLOB           only skills whose name matches GLOB are offered (repeatable; replaces session.allow)
  --deny GLOB            hide skills whose name matches GLOB (repeatable; replaces session.deny)
  --otel                 export OpenTelemetry spans of the turn (agent, model calls, tools, skills, runs) over
                         OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318), service
                         OTEL_SERVICE_NAME (default skillrt); also on with OTEL_TRACES_EXPORTER=otlp. Off by
                         default (see docs/telemetry.md)
  --tool-gating MODE     MCP server tools: open (always offered), skill (only while an active skill grants
                         them) or tool-list (AWorld: only servers an active skill's tool_list names are
                         narrowed); default tools.gating, else tool-list for aworld, skill for agentscope,
                         open otherwise
  --load-mode MODE       how long loaded skills stay: session, turn (until the next user turn) or once (one
                         model request); default session.loadMode, else turn for trpc and session otherwise
  --max-overview-skills N
                         trpc: most skills its overview lists with descriptions, the rest by name
                         (session.maxOverviewSkills; default as many as the catalog budget holds)
  --max-loaded-skills N  trpc: most skills loaded at once; past it the least recently used one is unloaded
                         (session.maxLoadedSkills; default no limit)
  --skill-tools LIST     the profile's tools offered to the model, comma-separated (repeatable;
                         session.skillTools; default all), e.g. --skill-tools skill_load,skill_run
  --no-preamble          no preamble before the catalog; under trpc, no guidance blocks after its overview
                         (session.preamble: false)
  --yes                  approve every tool call that would need approval (ask cannot ask; chat asks inline)
  --trust                trust every skill root for this run: project and remote skills may run scripts and
                         !\`cmd\` (default: only roots trusted with \`skillrt trust\`; chat asks once per root)
  -h, --help             show this help

Environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, ZAI_API_KEY (Z.ai GLM), MOONSHOT_API_KEY (Kimi), AGENT_MODEL,
SKILLS_DIR, SKILLS_AUTO_SELECT=true|llm|lexical (true = llm), SKILLS_MAX_ACTIVE (most skills active at once;
the pre-pass loads at most 3 without it), SKILLRT_MAX_ATTEMPTS (default 4).
Config file: skillrt.config.json, then ~/.skillrt/config.json, with the sections "model", "session" (activeSkills, allow, deny,
loadMode, maxOverviewSkills, maxLoadedSkills, skillTools, preamble), "exec" (executor, timeoutSeconds, requireLoaded,
allowCommands, denyCommands, hostDirs, artifactsDir), "skills" (per-skill env), "mcpServers" (MCP servers
whose tools the agent offers) and "tools" (gating, approval, allow); see docs/tools.md.
Conversations are saved in .skillrt/sessions.db and run outputs saved as artifacts in .skillrt/artifacts
under the current directory.
`;

/** Paragraph printed when nothing is configured and the default local Ollama is not reachable. */
export const CONFIGURE_MODEL_HELP =
  "No model is configured and no local Ollama answered at http://localhost:11434/v1. Configure a model with " +
  "environment variables: for any OpenAI-compatible server (OpenAI, GLM, Kimi, vLLM, LM Studio) set " +
  "OPENAI_BASE_URL, OPENAI_API_KEY and AGENT_MODEL (e.g. OPENAI_BASE_URL=https://api.openai.com/v1 " +
  "AGENT_MODEL=gpt-4o-mini); for Anthropic set ANTHROPIC_API_KEY and AGENT_MODEL (e.g. claude-sonnet-4-5); " +
  'or start Ollama (`ollama serve`, `ollama pull llama3.2`). The same settings can go in the "model" section of ' +
  "skillrt.config.json, or be given with --provider, --base-url and --model.\n";

/**
 * What to tell the user when the model provider failed: the configuration paragraph when nothing was
 * configured and the default local Ollama did not answer at all (no HTTP status), followed by the error itself;
 * else the error itself.
 */
export function providerFailureMessage(
  error: { message: string; status?: number | undefined; timedOut?: boolean },
  configured: boolean,
): string {
  // The configuration paragraph, and the failure itself: what did happen is the cause to look at.
  return !configured && error.status === undefined && error.timedOut !== true
    ? `${CONFIGURE_MODEL_HELP}(${error.message})\n`
    : `${error.message}\n`;
}

/** The model as the chat banner names it: `model-id (provider)`. */
export function agentModelName(parts: {
  model: LanguageModel;
  modelConfig?: ModelConfig | undefined;
}): string {
  if (parts.modelConfig !== undefined) return `${parts.modelConfig.modelId} (${parts.modelConfig.provider})`;
  return typeof parts.model === "string" ? parts.model : `${parts.model.modelId} (${parts.model.provider})`;
}

/** The line saying a turn stopped at the step limit. */
export function stepLimitMessage(steps: number): string {
  return `stopped after ${steps} model calls (the step limit; raise it with --max-steps) before the answer was finished`;
}
