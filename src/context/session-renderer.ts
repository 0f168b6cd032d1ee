/**
 * What a session's renderer offers: everything rendered now, the system prompt, the catalog's figures,
 * whether `skill_search` is offered, and the re-render of a frozen catalog. Built by
 * `createSessionRenderer`; a type of its own so that the session core and the `SkillSession` interface
 * need not import the renderer's implementation.
 */
import type { CatalogStats, RenderedContext } from "./rendered-context.js";

/** What a session renders, and the catalog's figures. */
export interface SessionRenderer {
  /** Everything rendered now; pure and deterministic. */
  render(): RenderedContext;
  /** The system-prompt part of {@link render}: `""` when there are no visible skills and nothing in it. */
  systemPrompt(): string;
  /** How the catalog fared against its budget. */
  catalogStats(): CatalogStats;
  /** True when `skill_search` should be offered (something left out of the catalog, or many skills). */
  searchOffered(): boolean;
  /**
   * History placement freezes the catalog so the system prompt stays byte-identical while skills load;
   * this re-renders it from the current state (call after compaction or at a turn boundary).
   */
  refreshCatalog(): void;
  /**
   * The text of the latest user message, which the `trpc` profile's overview is ranked for (its "Top
   * recommended skill for this request" line). The loop sets it before each step; other profiles ignore it.
   */
  setRequest(text: string): void;
  /** The text {@link setRequest} set last ("" before any request): what an AWorld agent skill is handed. */
  request(): string;
}
