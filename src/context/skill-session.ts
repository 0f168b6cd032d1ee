/**
 * The `SkillSession` interface: disclosure state for one conversation in one namespace, in three parts —
 * the operations (load, select, read, unload, queries, ledger, snapshot), the {@link SessionRenderer} and
 * the history-placement {@link HistoryShaper}. Operations return typed results
 * (`{ ok: true, … } | { ok: false, code, message }`) and never throw for expected failures.
 */
import type { Catalog } from "../catalog/types.js";
import type { HistoryShaper } from "./create-history-shaper.js";
import type { SessionEvent, SessionEventType } from "./session-event.js";
import type { SessionOperations } from "./session-operations.js";
import type { Placement, SkillSessionOptions } from "./session-options.js";
import type { SessionProfile } from "./session-profile.js";
import type { SessionRenderer } from "./session-renderer.js";
import type { TokenCounter } from "./token-counter.js";

export type { LoadOptions } from "./load-skill.js";
export type { ReadOptions } from "./read-file.js";
export type { LoadedSkillInfo } from "./session-queries.js";

/** Disclosure state of one conversation × namespace. */
export interface SkillSession extends SessionOperations {
  readonly id: string;
  readonly namespace: string;
  readonly placement: Placement;
  /** The tool profile the model sees (fixed at creation, see {@link SkillSessionOptions.profile}). */
  readonly profile: SessionProfile;
  readonly catalog: Catalog;
  readonly counter: TokenCounter;
  /** What the session renders: the catalog and loaded content in its placement (system prompt, blocks). */
  readonly renderer: SessionRenderer;
  /** The conversation's messages as the session shapes them (opening loads, stubs, re-materialisation). */
  readonly history: HistoryShaper;
  /** Subscribes to one event type; returns the unsubscribe function. */
  on<T extends SessionEventType>(
    type: T,
    listener: (event: Extract<SessionEvent, { type: T }>) => void,
  ): () => void;
}
