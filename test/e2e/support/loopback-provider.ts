/**
 * The shipped loopback provider (`skillrt/test`), with request bodies typed loosely for assertions in
 * tests.
 */
import {
  type LoopbackFormat,
  type ScriptedReply,
  type LoopbackProvider as ShippedProvider,
  startLoopbackProvider as start,
} from "../../../src/test-kit.js";

export type { RecordedRequest, ScriptedReply } from "../../../src/test-kit.js";

/** A loopback provider whose recorded bodies are `any` (tests read their fields directly). */
export type LoopbackProvider = ShippedProvider<any>;

/** Starts the shipped loopback provider (see `startLoopbackProvider` in `skillrt/test`). */
export function startLoopbackProvider(
  format: LoopbackFormat,
  script: ScriptedReply[],
): Promise<LoopbackProvider> {
  return start<any>(format, script);
}

/** The environment that points `skillrt ask`/`chat` at `provider` (OpenAI wire format). */
export function loopbackEnv(provider: { baseURL: string }): Record<string, string> {
  return { OPENAI_BASE_URL: provider.baseURL, OPENAI_API_KEY: "sk-loopback", AGENT_MODEL: "loopback-model" };
}
