/**
 * The AI SDK call options a `SkillAgent` passes through to every model call (DESIGN decision 25): sampling,
 * limits, provider options (Anthropic prompt caching, reasoning settings), headers, the AI SDK's own
 * telemetry, and a signal. Given per agent (`callOptions`) and per turn (`send(input, { callOptions })`).
 */
import type { streamText } from "ai";

type StreamTextOptions = Parameters<typeof streamText>[0];

/**
 * Options of the AI SDK's `streamText` that skillrt passes to each model call as given. `maxOutputTokens`
 * is also the cap skillrt enforces on a call's output (see `SkillAgentOptions.maxOutputTokens`);
 * `abortSignal` cancels the turn like `send`'s own.
 */
export type CallOptions = Pick<
  StreamTextOptions,
  | "experimental_telemetry"
  | "telemetry"
  | "providerOptions"
  | "headers"
  | "temperature"
  | "topP"
  | "topK"
  | "presencePenalty"
  | "frequencyPenalty"
  | "maxOutputTokens"
  | "seed"
  | "stopSequences"
  | "reasoning"
  | "abortSignal"
>;

type ProviderOptions = NonNullable<CallOptions["providerOptions"]>;

/**
 * `turn`'s options over `agent`'s: a turn's value wins; `headers` and each provider's `providerOptions`
 * are merged key by key; both signals cancel.
 */
export function mergeCallOptions(
  agent: CallOptions | undefined,
  turn: CallOptions | undefined,
): CallOptions | undefined {
  if (turn === undefined) return agent;
  if (agent === undefined) return turn;
  const merged: CallOptions = { ...agent, ...turn };
  if (agent.headers !== undefined && turn.headers !== undefined)
    merged.headers = { ...agent.headers, ...turn.headers };
  if (agent.providerOptions !== undefined && turn.providerOptions !== undefined)
    merged.providerOptions = mergeProviderOptions(agent.providerOptions, turn.providerOptions);
  if (agent.abortSignal !== undefined && turn.abortSignal !== undefined)
    merged.abortSignal = AbortSignal.any([agent.abortSignal, turn.abortSignal]);
  return merged;
}

/** `over`'s provider options over `base`'s, each provider's keys merged. */
export function mergeProviderOptions(base: ProviderOptions, over: ProviderOptions): ProviderOptions {
  const out: ProviderOptions = { ...base };
  for (const [provider, options] of Object.entries(over)) out[provider] = { ...base[provider], ...options };
  return out;
}
