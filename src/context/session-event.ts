/** The events a {@link SkillSession} emits: loads, unloads, doc selections, file reads and evictions. */

/** Events a session emits (listeners via `on(type, fn)` or the `onEvent` option). */
export type SessionEvent =
  /** A skill entered the context: loaded by the model, the user, `init()` or the selection pre-pass. */
  | { type: "skill-load"; name: string; tokens: number; by: "model" | "user" | "init" | "select" }
  /** A skill left the context: unloaded (by the model or the user), evicted, or gone from the catalog. */
  | {
      type: "skill-unload";
      name: string;
      reason: "unload" | "evict" | "missing";
      /** Who unloaded it (`reason: "unload"` only). */
      by?: "model" | "user";
    }
  | { type: "docs-select"; name: string; docs: string[] }
  | { type: "file-read"; name: string; path: string; tokens: number }
  /** Items dropped (least recently used first) to bring the context back under the threshold. */
  | { type: "budget-evict"; evicted: string[]; tokensBefore: number; tokensAfter: number; threshold: number };

/** Names of all {@link SessionEvent} types. */
export type SessionEventType = SessionEvent["type"];
