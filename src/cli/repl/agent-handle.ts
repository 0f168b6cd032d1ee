/** What the `ask` and `chat` commands drive: one conversation with its model, skill context and store. */
import type { LanguageModel, ModelMessage } from "ai";
import type { EngineEventListener } from "../../engine/engine-event.js";
import type { EngineSkillContext } from "../../engine/engine-skill-context.js";
import type { ModelConfig } from "../../engine/model-config.js";
import type { RunAgentResult } from "../../engine/run-agent.js";
import type { StoredSessionInfo } from "../../store/session-store.js";

/** A live conversation. */
export interface AgentHandle {
  readonly config: ModelConfig;
  readonly model: LanguageModel;
  /** Id under which the conversation is saved. */
  sessionId(): string;
  /** The skill layer of the current conversation. */
  context(): EngineSkillContext;
  /**
   * Approximate body tokens of the named skills (for `/skills`), measured lazily and cached; skills that
   * cannot be read are left out. Optional: without it `/skills` shows `?` for skills not loaded.
   */
  skillBodyTokens?(names: readonly string[]): Promise<Map<string, number>>;
  /** The conversation so far. */
  history(): ModelMessage[];
  /** Appends messages (e.g. a user-requested skill load) to the history. */
  append(messages: ModelMessage[]): void;
  /**
   * One user turn: `$name` loads, the selection pre-pass, compaction, the agent loop; the history is
   * updated and saved (also when the provider fails, before the error is rethrown).
   */
  runTurn(
    text: string,
    options: { abortSignal?: AbortSignal; onEvent: EngineEventListener },
  ): Promise<RunAgentResult>;
  /** Saves the conversation now. */
  save(): Promise<void>;
  /** Starts a fresh conversation (new id, empty history, fresh skill session). */
  reset(): Promise<void>;
  /** Saved conversations, most recent first. */
  listSessions(): Promise<StoredSessionInfo[]>;
  /** Releases the store. */
  close(): Promise<void>;
}
