/**
 * `skillrt/test`: the fakes skillrt's own tests use, for testing programs built on skillrt without a model
 * provider. Per our conventions, fakes stand in for model providers only; skills, sessions, stores and
 * executors are the real ones.
 *
 * - {@link scriptedModel}: an AI SDK mock language model (`MockLanguageModelV4`) replaying scripted steps
 *   (text, tool calls, errors) and recording every call, for `createSkillAgent({ model })`,
 *   `generateText`, `streamText` or a `ToolLoopAgent`.
 * - {@link startLoopbackProvider}: a loopback OpenAI-compatible (or Anthropic) HTTP server replaying
 *   scripted replies, for wire-level tests of a program that reads `OPENAI_BASE_URL`.
 * - {@link createMemoryCatalog}: a catalog of skills defined in code; {@link createMemoryStore}: a session
 *   store in memory.
 */
import { createCatalog } from "./catalog/create-catalog.js";
import type { Catalog, MemorySkill } from "./catalog/types.js";

export { createMemoryStore } from "./store/create-memory-store.js";
export { type ScriptedStep, scriptedModel, systemOf, toolNamesOf } from "./testing/scripted-model.js";
export {
  type LoopbackFormat,
  type LoopbackProvider,
  type RecordedRequest,
  type ScriptedReply,
  startLoopbackProvider,
} from "./testing/start-loopback-provider.js";

/** A catalog of the given skills only (no folders are scanned). */
export function createMemoryCatalog(skills: MemorySkill[]): Promise<Catalog> {
  return createCatalog({ roots: [], memory: skills });
}
