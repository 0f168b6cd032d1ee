/** Resolves the model configuration from flags, environment and config files. */
import { SkillrtError } from "../errors/skillrt-error.js";
import { loadSkillrtConfig, type SkillrtConfig } from "./load-skillrt-config.js";
import { DEFAULT_BASE_URL, DEFAULT_MODELS, type ModelConfig } from "./model-config.js";
import { type ModelConfigFile, ProviderName } from "./skillrt-config.js";

/** Command-line overrides (highest precedence). */
export interface ModelFlags {
  provider?: string | undefined;
  model?: string | undefined;
  baseURL?: string | undefined;
  contextWindow?: number | undefined;
  maxAttempts?: number | undefined;
}

/** Options of {@link loadModelConfig}. */
export interface LoadModelConfigOptions {
  flags?: ModelFlags;
  /** Environment. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Directory holding `skillrt.config.json`. Default `process.cwd()`. */
  cwd?: string;
  /** Home directory holding `.skillrt/config.json`. Default `env.HOME`; none when unset. */
  home?: string | undefined;
  /** The config files already read (`loadSkillrtConfig()`); then `cwd` and `home` are not read. */
  config?: SkillrtConfig;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function parseProvider(value: string, where: string): ProviderName {
  const parsed = ProviderName.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new SkillrtError({
    code: "config-invalid",
    message: `${where}: unknown provider '${value}'. Use one of: ${ProviderName.options.join(", ")}.`,
  });
}

function positiveInt(value: string | undefined, where: string): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new SkillrtError({
      code: "config-invalid",
      message: `${where}: expected a positive integer, got '${value}'.`,
    });
  }
  return n;
}

/**
 * Merges, highest first: flags (`--provider`, `--model`, `--base-url`, `--context-window`), environment
 * (`SKILLRT_PROVIDER`, `AGENT_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`,
 * `ANTHROPIC_API_KEY`, `SKILLRT_CONTEXT_WINDOW`, `SKILLRT_MAX_ATTEMPTS`), `<cwd>/skillrt.config.json`,
 * `~/.skillrt/config.json`. Without an explicit provider: `OPENAI_BASE_URL` → `openai-compatible`,
 * an Anthropic key or URL → `anthropic`, `OPENAI_API_KEY` → `openai`; with nothing configured, a local
 * Ollama (`openai-compatible` at `http://localhost:11434/v1`). Throws `SkillrtError` (`config-invalid`)
 * for a broken config file or value.
 */
export async function loadModelConfig(options: LoadModelConfigOptions = {}): Promise<ModelConfig> {
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const cwd = options.cwd ?? process.cwd();
  const home = options.home ?? nonEmpty(env["HOME"]);
  const file: ModelConfigFile = (options.config ?? (await loadSkillrtConfig({ cwd, home: home ?? null })))
    .model;

  const openaiBase = nonEmpty(env["OPENAI_BASE_URL"]);
  const anthropicBase = nonEmpty(env["ANTHROPIC_BASE_URL"]);
  const anthropicKey = nonEmpty(env["ANTHROPIC_API_KEY"]);
  const openaiKey = nonEmpty(env["OPENAI_API_KEY"]);

  let provider: ProviderName | undefined;
  if (nonEmpty(flags.provider) !== undefined) provider = parseProvider(flags.provider!.trim(), "--provider");
  else if (nonEmpty(env["SKILLRT_PROVIDER"]) !== undefined)
    provider = parseProvider(env["SKILLRT_PROVIDER"]!.trim(), "SKILLRT_PROVIDER");
  else if (file.provider !== undefined) provider = file.provider;
  else if (openaiBase !== undefined) provider = "openai-compatible";
  else if (anthropicKey !== undefined || anthropicBase !== undefined) provider = "anthropic";
  else if (openaiKey !== undefined) provider = "openai";

  const modelFromUser = nonEmpty(flags.model) ?? nonEmpty(env["AGENT_MODEL"]) ?? file.model;
  const configured =
    provider !== undefined || modelFromUser !== undefined || nonEmpty(flags.baseURL) !== undefined;
  const resolved: ProviderName = provider ?? "openai-compatible";

  const envBase = resolved === "anthropic" ? anthropicBase : openaiBase;
  let baseURL = nonEmpty(flags.baseURL) ?? envBase ?? file.baseURL;
  if (baseURL === undefined && resolved === "openai-compatible") baseURL = DEFAULT_BASE_URL;

  const keyFromFileEnv = file.apiKeyEnv === undefined ? undefined : nonEmpty(env[file.apiKeyEnv]);
  const apiKey = keyFromFileEnv ?? (resolved === "anthropic" ? anthropicKey : openaiKey);

  const contextWindow =
    flags.contextWindow ??
    positiveInt(env["SKILLRT_CONTEXT_WINDOW"], "SKILLRT_CONTEXT_WINDOW") ??
    file.contextWindow;
  return {
    provider: resolved,
    modelId: modelFromUser ?? DEFAULT_MODELS[resolved],
    baseURL,
    apiKey,
    contextWindow: contextWindow ?? 128_000,
    contextWindowConfigured: contextWindow !== undefined,
    maxAttempts:
      flags.maxAttempts ??
      positiveInt(env["SKILLRT_MAX_ATTEMPTS"], "SKILLRT_MAX_ATTEMPTS") ??
      file.maxAttempts ??
      4,
    configured,
  };
}
