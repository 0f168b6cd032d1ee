/** Resolves the model configuration from flags, environment and config files. */
import { SkillrtError } from "../errors/skillrt-error.js";
import { loadSkillrtConfig, type SkillrtConfig } from "./load-skillrt-config.js";
import {
  DEFAULT_BASE_URL,
  DEFAULT_MODELS,
  type ModelConfig,
  PROVIDER_NAMES,
  type ProviderName,
} from "./model-config.js";
import type { ModelConfigFile } from "./skillrt-config.js";

/** Command-line overrides (highest precedence). */
export interface ModelFlags {
  provider?: string | undefined;
  model?: string | undefined;
  baseURL?: string | undefined;
  contextWindow?: number | undefined;
  maxAttempts?: number | undefined;
  /** Most ms to the first byte of the model's answer (`--model-timeout`). */
  firstByteTimeoutMs?: number | undefined;
  /** Most ms between two chunks of the model's answer (`--model-timeout`). */
  idleTimeoutMs?: number | undefined;
  /** Most ms one turn may take (`--turn-timeout`). */
  turnTimeoutMs?: number | undefined;
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

/**
 * OpenAI-compatible vendors reached by their own API key alone (the seed's `ZAI_API_KEY=… AGENT_MODEL=glm-5`):
 * the key's variable, the variable overriding the endpoint, the endpoint, a default model, and the model
 * names that are theirs (which pick the vendor when several keys are set).
 */
export const KEY_VENDORS = [
  {
    keyEnv: "ZAI_API_KEY",
    baseURLEnv: "ZAI_BASE_URL",
    baseURL: "https://api.z.ai/api/paas/v4",
    model: "glm-4.6",
    models: /^glm/i,
  },
  {
    keyEnv: "MOONSHOT_API_KEY",
    baseURLEnv: "MOONSHOT_BASE_URL",
    baseURL: "https://api.moonshot.ai/v1",
    model: "kimi-k2-0905-preview",
    models: /^(?:kimi|moonshot)/i,
  },
] as const;

type KeyVendor = (typeof KEY_VENDORS)[number];

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function parseProvider(value: string, where: string): ProviderName {
  const known = PROVIDER_NAMES.find((name) => name === value);
  if (known !== undefined) return known;
  throw new SkillrtError({
    code: "config-invalid",
    message: `${where}: unknown provider '${value}'. Use one of: ${PROVIDER_NAMES.join(", ")}.`,
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
 * `ANTHROPIC_API_KEY`, `ZAI_API_KEY`, `ZAI_BASE_URL`, `MOONSHOT_API_KEY`, `MOONSHOT_BASE_URL`,
 * `SKILLRT_CONTEXT_WINDOW`, `SKILLRT_MAX_ATTEMPTS`), `<cwd>/skillrt.config.json`, `~/.skillrt/config.json`.
 * The model deadlines come from the flags (`firstByteTimeoutMs`, `idleTimeoutMs`) or the file
 * (`firstByteTimeoutSeconds`, `idleTimeoutSeconds`); unset, the engine's defaults (300 s and 120 s) apply.
 * So does the turn's deadline (`turnTimeoutMs`, `turnTimeoutSeconds`; default 30 min); the output cap of a
 * call comes from the file only (`maxOutputTokens`).
 * Without an explicit provider: `OPENAI_BASE_URL` → `openai-compatible`; a Z.ai or Moonshot key whose
 * models `AGENT_MODEL` names (`glm-…`, `kimi-…`) → that vendor's endpoint ({@link KEY_VENDORS}; its
 * `*_BASE_URL` overrides it); an Anthropic key or URL → `anthropic`; `OPENAI_API_KEY` → `openai`; a Z.ai
 * or Moonshot key alone → that vendor; with nothing configured, a local
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

  const modelFromUser = nonEmpty(flags.model) ?? nonEmpty(env["AGENT_MODEL"]) ?? file.model;
  const keyed = KEY_VENDORS.filter((v) => nonEmpty(env[v.keyEnv]) !== undefined);
  const modelVendor = keyed.find((v) => modelFromUser !== undefined && v.models.test(modelFromUser));

  let provider: ProviderName | undefined;
  let vendor: KeyVendor | undefined;
  if (nonEmpty(flags.provider) !== undefined) provider = parseProvider(flags.provider!.trim(), "--provider");
  else if (nonEmpty(env["SKILLRT_PROVIDER"]) !== undefined)
    provider = parseProvider(env["SKILLRT_PROVIDER"]!.trim(), "SKILLRT_PROVIDER");
  else if (file.provider !== undefined) provider = file.provider;
  else if (openaiBase !== undefined) provider = "openai-compatible";
  else if (modelVendor !== undefined) vendor = modelVendor;
  else if (anthropicKey !== undefined || anthropicBase !== undefined) provider = "anthropic";
  else if (openaiKey !== undefined) provider = "openai";
  else vendor = keyed[0];
  if (vendor !== undefined) provider = "openai-compatible";
  const configured =
    vendor !== undefined ||
    provider !== undefined ||
    modelFromUser !== undefined ||
    nonEmpty(flags.baseURL) !== undefined;
  const resolved: ProviderName = provider ?? "openai-compatible";

  const envBase =
    vendor !== undefined
      ? (nonEmpty(env[vendor.baseURLEnv]) ?? vendor.baseURL)
      : resolved === "anthropic"
        ? anthropicBase
        : openaiBase;
  let baseURL = nonEmpty(flags.baseURL) ?? envBase ?? file.baseURL;
  if (baseURL === undefined && resolved === "openai-compatible") baseURL = DEFAULT_BASE_URL;

  const keyFromFileEnv = file.apiKeyEnv === undefined ? undefined : nonEmpty(env[file.apiKeyEnv]);
  const apiKey =
    keyFromFileEnv ??
    (vendor !== undefined
      ? nonEmpty(env[vendor.keyEnv])
      : resolved === "anthropic"
        ? anthropicKey
        : (openaiKey ?? vendorKeyFor(baseURL, env)));

  const contextWindow =
    flags.contextWindow ??
    positiveInt(env["SKILLRT_CONTEXT_WINDOW"], "SKILLRT_CONTEXT_WINDOW") ??
    file.contextWindow;
  const primary: ModelConfig = {
    provider: resolved,
    modelId: modelFromUser ?? vendor?.model ?? DEFAULT_MODELS[resolved],
    baseURL,
    apiKey,
    contextWindow: contextWindow ?? 128_000,
    contextWindowConfigured: contextWindow !== undefined,
    maxAttempts:
      flags.maxAttempts ??
      positiveInt(env["SKILLRT_MAX_ATTEMPTS"], "SKILLRT_MAX_ATTEMPTS") ??
      file.maxAttempts ??
      4,
    ...optionalMs("firstByteTimeoutMs", flags.firstByteTimeoutMs, file.firstByteTimeoutSeconds),
    ...optionalMs("idleTimeoutMs", flags.idleTimeoutMs, file.idleTimeoutSeconds),
    ...optionalMs("turnTimeoutMs", flags.turnTimeoutMs, file.turnTimeoutSeconds),
    ...(file.maxOutputTokens === undefined ? {} : { maxOutputTokens: file.maxOutputTokens }),
    ...(file.callOptions === undefined ? {} : { callOptions: file.callOptions }),
    configured,
  };
  if (file.fallback === undefined || file.fallback.length === 0) return primary;
  const fallback = file.fallback.map(
    (entry): ModelConfig => ({
      ...primary,
      provider: entry.provider,
      modelId: entry.model,
      baseURL: entry.baseURL ?? (entry.provider === "openai-compatible" ? DEFAULT_BASE_URL : undefined),
      apiKey:
        entry.apiKeyEnv === undefined
          ? nonEmpty(env[entry.provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"])
          : nonEmpty(env[entry.apiKeyEnv]),
      maxAttempts: entry.maxAttempts ?? primary.maxAttempts,
    }),
  );
  return { ...primary, fallback };
}

/** `{ [key]: ms }` from a flag in ms or a file value in seconds (the flag wins); `{}` when neither is set. */
function optionalMs<K extends string>(
  key: K,
  flagMs: number | undefined,
  fileSeconds: number | undefined,
): Partial<Record<K, number>> {
  const ms = flagMs ?? (fileSeconds === undefined ? undefined : Math.round(fileSeconds * 1000));
  return ms === undefined ? {} : ({ [key]: ms } as Partial<Record<K, number>>);
}

/** A vendor key for an OpenAI-compatible endpoint that is that vendor's (no `OPENAI_API_KEY` given). */
function vendorKeyFor(
  baseURL: string | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  if (baseURL === undefined) return undefined;
  const host = URL.canParse(baseURL) ? new URL(baseURL).hostname : "";
  const vendor = /(?:^|\.)(?:z\.ai|bigmodel\.cn)$/.test(host)
    ? KEY_VENDORS[0]
    : /(?:^|\.)moonshot\.(?:ai|cn)$/.test(host)
      ? KEY_VENDORS[1]
      : undefined;
  return vendor === undefined ? undefined : nonEmpty(env[vendor.keyEnv]);
}
