/**
 * Anthropic prompt caching in `history` placement: the point of that placement is a prompt prefix that
 * stays the same from step to step (DESIGN decision 4), and Anthropic caches a prefix only where the request
 * marks it. The system prompt (host instructions and the catalog) gets a breakpoint of its own, and the
 * request asks for automatic caching of the rest (the history, with the loaded skills' bodies).
 */
import type { LanguageModel, SystemModelMessage } from "ai";
import type { CallOptions } from "./call-options.js";

/** Anthropic's cache marker. */
export interface CacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

/**
 * The cache marker for a run: the caller's own (`providerOptions.anthropic.cacheControl`), else the default
 * ephemeral one; undefined when caching is off, the placement is not `history`, or the model is not Anthropic's.
 */
export function promptCacheControl(
  model: LanguageModel,
  placement: string | undefined,
  callOptions: Pick<CallOptions, "providerOptions"> | undefined,
  enabled: boolean,
): CacheControl | undefined {
  if (!enabled || placement !== "history") return undefined;
  const provider = typeof model === "string" ? model.split("/")[0] : model.provider;
  if (provider === undefined || !provider.startsWith("anthropic")) return undefined;
  const own = callOptions?.providerOptions?.anthropic?.cacheControl as CacheControl | undefined;
  return own ?? { type: "ephemeral" };
}

/** The system prompt with its cache breakpoint (the text itself without one). */
export function cachedInstructions(
  text: string,
  cache: CacheControl | undefined,
): string | SystemModelMessage {
  if (cache === undefined) return text;
  return { role: "system", content: text, providerOptions: { anthropic: { cacheControl: { ...cache } } } };
}
