/**
 * A provider fallback chain (config `model.fallback`, as peterbot's provider factory chains its
 * providers): the first model takes every call; when it fails with a retryable error after its own
 * retries — a 408, 409, 429 or 5xx answer, or no answer at all — the next model takes that call, and so on.
 * Errors a retry would not fix (400, 401, a deadline passed, a cancelled call) end the call at once. Only
 * the start of a call falls back: a stream that already delivered parts is never replayed elsewhere.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { APICallError } from "ai";

/** What {@link createFallbackModel} reports when a call moves to the next model. */
export interface FallbackNotice {
  /** `provider/model` of the model that failed, and of the one taking the call. */
  from: string;
  to: string;
  /** HTTP status of the failure, undefined when there was no answer. */
  status: number | undefined;
}

/** True for the failures the next provider should take: retryable ones (the AI SDK's `isRetryable`). */
export function isFallbackError(error: unknown): boolean {
  return APICallError.isInstance(error) && error.isRetryable;
}

const label = (model: LanguageModelV4): string => `${model.provider}/${model.modelId}`;

/**
 * One model over `models` (at least one), tried in order as described above. It reports the first
 * model's provider, id and supported URLs; the error of the last model tried is the call's error.
 */
export function createFallbackModel(
  models: readonly LanguageModelV4[],
  onFallback: (notice: FallbackNotice) => void = () => {},
): LanguageModelV4 {
  const [first] = models;
  if (first === undefined) throw new Error("createFallbackModel needs at least one model");
  async function attempt<T>(call: (model: LanguageModelV4) => PromiseLike<T>): Promise<T> {
    for (let i = 0; ; i++) {
      const model = models[i] as LanguageModelV4;
      try {
        return await call(model);
      } catch (error) {
        const next = models[i + 1];
        if (next === undefined || !isFallbackError(error)) throw error;
        const status = APICallError.isInstance(error) ? error.statusCode : undefined;
        onFallback({ from: label(model), to: label(next), status });
      }
    }
  }
  return {
    specificationVersion: "v4",
    provider: first.provider,
    modelId: first.modelId,
    supportedUrls: first.supportedUrls,
    doGenerate: (options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> =>
      attempt((model) => model.doGenerate(options)),
    doStream: (options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> =>
      attempt((model) => model.doStream(options)),
  };
}
