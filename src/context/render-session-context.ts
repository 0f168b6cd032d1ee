/**
 * Turns session state into context blocks, deterministically. `system` placement renders loaded skills
 * (alphabetically) and their docs (by path) into the system prompt under "Loaded Skill Instructions" and
 * "Loaded Skill References" (or, in the `trpc` layout, `[Loaded]` / `Docs loaded:` / `[Doc]` per skill); `history` placement leaves the prompt to the catalog and lists loaded content
 * as the tool results that carried it, in the order it entered the conversation.
 */
import { SYSTEM_INSTRUCTIONS_HEADER, SYSTEM_REFERENCES_HEADER } from "./render-skill-content.js";
import { renderTrpcDocsLine } from "./render-trpc-layout.js";
import type { ContextBlock } from "./rendered-context.js";
import type { SystemLayout } from "./session-options.js";
import { type Item, itemKey, type SessionState } from "./session-state.js";

/** A block with its token count. */
export interface MeasuredBlock {
  block: ContextBlock;
  tokens: number;
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: Item, b: Item): number => Number(a.id.slice(1)) - Number(b.id.slice(1));

function itemBlock(item: Item): MeasuredBlock {
  return {
    block: {
      key: itemKey(item),
      kind: item.kind,
      skill: item.skill,
      placement: item.placement,
      text: item.text,
    },
    tokens: item.tokens,
  };
}

/** Blocks of the current state after the catalog block; `count` measures the section headers. */
export function renderSessionBlocks(
  state: SessionState,
  catalog: MeasuredBlock | undefined,
  count: (text: string) => number,
  layout: SystemLayout = "omni",
): MeasuredBlock[] {
  const blocks: MeasuredBlock[] = catalog === undefined ? [] : [catalog];
  const reads = [...state.reads.values()].sort(byId);
  if (state.placement === "system") {
    const names = [...state.skills.keys()].sort(byName);
    if (layout === "trpc") {
      for (const name of names) {
        const entry = state.skills.get(name);
        if (entry === undefined) continue;
        blocks.push(itemBlock(entry.item));
        const docs = [...entry.docs.values()].sort((a, b) => byName(a.path ?? "", b.path ?? ""));
        const line = renderTrpcDocsLine(docs.map((d) => d.path ?? ""));
        blocks.push(frame(`frame:docs:${name}`, line, count));
        for (const doc of docs) blocks.push(itemBlock(doc));
      }
      for (const read of reads) blocks.push(itemBlock(read));
      return blocks;
    }
    if (names.length > 0) {
      // AWorld's active skills are `<skill_file_content>` blocks with no section header.
      if (layout !== "aworld") blocks.push(frame("frame:instructions", SYSTEM_INSTRUCTIONS_HEADER, count));
      for (const name of names) {
        const entry = state.skills.get(name);
        if (entry !== undefined) blocks.push(itemBlock(entry.item));
      }
    }
    const docs = names.flatMap((name) => {
      const entry = state.skills.get(name);
      return entry === undefined
        ? []
        : [...entry.docs.values()].sort((a, b) => byName(a.path ?? "", b.path ?? ""));
    });
    if (docs.length > 0) {
      blocks.push(frame("frame:references", SYSTEM_REFERENCES_HEADER, count));
      for (const doc of docs) blocks.push(itemBlock(doc));
    }
    for (const read of reads) blocks.push(itemBlock(read));
    return blocks;
  }
  const items = [...state.live.values()].sort(byId);
  for (const item of items) blocks.push(itemBlock(item));
  return blocks;
}

function frame(key: string, text: string, count: (text: string) => number): MeasuredBlock {
  return { block: { key, kind: "frame", placement: "system", text }, tokens: count(text) };
}
