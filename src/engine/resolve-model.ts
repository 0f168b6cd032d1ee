/** Builds an AI SDK language model from a {@link ModelConfig}, through the provider packages only. */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import type { ModelConfig } from "../config/model-config.js";
import { createDeadlineFetch } from "./deadline-fetch.js";
import { createFallbackModel, type FallbackNotice } from "./fallback-model.js";
import { createRetryFetch, type FetchFunction, type RetryNotice } from "./retry-fetch.js";

/** Options of {@link resolveModel}. */
export interface ResolveModelOptions {
  /** Underlying fetch (tests, proxies). Default `globalThis.fetch`. */
  fetch?: FetchFunction;
  /** Called before each retry of a 429/5xx. */
  onRetry?: (notice: RetryNotice) => void;
  /** Delay before the first retry without `Retry-After`, in ms. Default 500. */
  baseDelayMs?: number;
  /** Called when a call moves to the next model of `config.fallback`. */
  onFallback?: (notice: FallbackNotice) => void;
}

/**
 * Returns the language model for `config`: `openai-compatible` (any base URL: OpenAI, GLM, Kimi,
 * Ollama, vLLM, LM Studio), `anthropic` or `openai`. Requests go through {@link createRetryFetch}
 * with `config.maxAttempts`; callers should pass `maxRetries: 0` to AI SDK calls so retries are not
 * doubled (the engine does). Every attempt has the deadlines of {@link createDeadlineFetch}:
 * `config.firstByteTimeoutMs` (default 300 s) to the first byte of the answer and
 * `config.idleTimeoutMs` (default 120 s) between chunks; past one, the request fails with a
 * `ModelTimeoutError` (not retried), which the engine reports as a `ProviderError`. With
 * `config.fallback`, the next model of the chain takes a call the one before failed with a retryable error
 * after its retries (see `createFallbackModel`).
 */
export function resolveModel(config: ModelConfig, options: ResolveModelOptions = {}): LanguageModel {
  const primary = resolveOne(config, options);
  if (config.fallback === undefined || config.fallback.length === 0) return primary;
  return createFallbackModel(
    [primary, ...config.fallback.map((entry) => resolveOne(entry, options))],
    options.onFallback,
  );
}

function resolveOne(config: ModelConfig, options: ResolveModelOptions): LanguageModelV4 {
  const deadlines = createDeadlineFetch({
    ...(config.firstByteTimeoutMs === undefined ? {} : { firstByteTimeoutMs: config.firstByteTimeoutMs }),
    ...(config.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: config.idleTimeoutMs }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const fetch = createRetryFetch({
    maxAttempts: config.maxAttempts,
    fetch: deadlines,
    ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
    ...(options.baseDelayMs === undefined ? {} : { baseDelayMs: options.baseDelayMs }),
  });
  const baseURL = config.baseURL?.replace(/\/+$/, "");
  // Anthropic and OpenAI take the same settings, and default their own endpoint when none is given.
  const settings = {
    fetch,
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
  };
  switch (config.provider) {
    case "anthropic":
      return lazyModel("anthropic.messages", config.modelId, async () => {
        const { createAnthropic } = await import("@ai-sdk/anthropic");
        return createAnthropic(settings)(config.modelId);
      });
    case "openai":
      return lazyModel("openai.responses", config.modelId, async () => {
        const { createOpenAI } = await import("@ai-sdk/openai");
        return createOpenAI(settings)(config.modelId);
      });
    case "openai-compatible":
      return lazyModel("openai-compatible.chat", config.modelId, async () => {
        const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
        const provider = createOpenAICompatible({
          name: "openai-compatible",
          baseURL: baseURL ?? "http://localhost:11434/v1",
          fetch,
          includeUsage: true,
          ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
        });
        return provider.chatModel(config.modelId);
      });
  }
}

/**
 * A provider's model whose package is imported on its first call: a process talking to one provider never
 * loads the other two, each tens of milliseconds of module loading before the first request. `provider`
 * is the name the package's model reports (a test checks each against the real one), so labels and saved
 * sessions read the same before and after the load.
 */
function lazyModel(provider: string, modelId: string, load: () => Promise<LanguageModelV4>): LanguageModelV4 {
  let loaded: Promise<LanguageModelV4> | undefined;
  const model = (): Promise<LanguageModelV4> => {
    loaded ??= load();
    return loaded;
  };
  return {
    specificationVersion: "v4",
    provider,
    modelId,
    get supportedUrls() {
      return model().then((m) => m.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
}
