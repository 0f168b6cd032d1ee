/**
 * Model configuration: which provider, model, endpoint and limits the engine uses. Read from flags,
 * environment variables and `skillrt.config.json` (see {@link loadModelConfig}).
 */
import type { ModelCallOptions } from "./model-call-options.js";

/** Provider packages skillrt drives (all through the AI SDK). Plain data: reading a model setting needs no schema library. */
export const PROVIDER_NAMES = ["openai-compatible", "anthropic", "openai"] as const;
/** One of {@link PROVIDER_NAMES}. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

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
  /**
   * True when the window came from a flag, `SKILLRT_CONTEXT_WINDOW` or a config file; false when
   * {@link contextWindow} is the 128,000 default (the window is unknown, so a session's catalog budget
   * should be its 2,000-token default rather than 1% of a guess).
   */
  contextWindowConfigured?: boolean;
  /** Most attempts per request. Default 4. */
  maxAttempts: number;
  /**
   * Most ms from sending a request to the first byte of the answer; past it the step fails with a
   * provider error. Default 300,000 (a slow local model loading and reading a long prompt).
   */
  firstByteTimeoutMs?: number;
  /** Most ms of silence between two chunks of a streamed answer. Default 120,000. */
  idleTimeoutMs?: number;
  /**
   * Most output tokens of one model call (`model.maxOutputTokens`), asked of the provider and enforced on
   * the stream. Unset: the provider's default, and skillrt stops a call past 32,000.
   */
  maxOutputTokens?: number;
  /** Most ms one turn may take (`--turn-timeout`, `model.turnTimeoutSeconds`). Default 1,800,000 (30 min). */
  turnTimeoutMs?: number;
  /** AI SDK call options of every model call (`model.callOptions`); an agent's own `callOptions` are merged over them. */
  callOptions?: ModelCallOptions;
  /** False when nothing at all was configured and the local Ollama default applies. */
  configured: boolean;
  /**
   * The fallback chain (config `model.fallback`): models that take a call, in order, when the one before
   * fails with a retryable error after its retries. Default none.
   */
  fallback?: ModelConfig[];
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
