/**
 * Model configuration: which provider, model, endpoint and limits the engine uses. Read from flags,
 * environment variables and `skillrt.config.json` (see {@link loadModelConfig}).
 */
import { z } from "zod";

/** Provider packages skillrt drives (all through the AI SDK). */
export const ProviderName = z.enum(["openai-compatible", "anthropic", "openai"]);
/** Provider packages skillrt drives (all through the AI SDK). */
export type ProviderName = z.infer<typeof ProviderName>;

/** The `model` section of `skillrt.config.json` (every field optional). */
export const ModelConfigFile = z
  .object({
    provider: ProviderName.optional(),
    /** Model id, e.g. `gpt-4o-mini`, `claude-sonnet-4-5`, `glm-4.6`, `llama3.2`. */
    model: z.string().min(1).optional(),
    baseURL: z.string().url().optional(),
    /** Name of the environment variable holding the API key (keys are never stored in the file). */
    apiKeyEnv: z.string().min(1).optional(),
    contextWindow: z.number().int().positive().optional(),
    /** Most attempts per provider request (retries of 429/5xx included). */
    maxAttempts: z.number().int().min(1).max(20).optional(),
  })
  .strict();
/** The `model` section of `skillrt.config.json` (every field optional). */
export type ModelConfigFile = z.infer<typeof ModelConfigFile>;

/** A whole `skillrt.config.json`: only `model` is read by the engine; other sections belong to other modules. */
export const SkillrtConfigFile = z.looseObject({ model: ModelConfigFile.optional() });
/** A whole `skillrt.config.json`. */
export type SkillrtConfigFile = z.infer<typeof SkillrtConfigFile>;

/** A fully resolved model configuration. */
export interface ModelConfig {
  provider: ProviderName;
  modelId: string;
  /** Endpoint; undefined means the provider package's default. */
  baseURL: string | undefined;
  /** The API key (never printed; {@link describeModel} leaves it out). */
  apiKey: string | undefined;
  /** Context window in tokens, for budgets and `/context`. Default 128,000. */
  contextWindow: number;
  /** Most attempts per request. Default 4. */
  maxAttempts: number;
  /** False when nothing at all was configured and the local Ollama default applies. */
  configured: boolean;
}

/** Default endpoint when nothing is configured: a local Ollama's OpenAI-compatible API. */
export const DEFAULT_BASE_URL = "http://localhost:11434/v1";

/** Default model per provider (used when no model is configured). */
export const DEFAULT_MODELS: Record<ProviderName, string> = {
  "openai-compatible": "llama3.2",
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-4o-mini",
};

/** One line describing the model for people and logs: provider, model, endpoint (never the key). */
export function describeModel(config: ModelConfig): string {
  const where = config.baseURL === undefined ? "" : ` at ${config.baseURL}`;
  return `${config.provider} model '${config.modelId}'${where}`;
}
