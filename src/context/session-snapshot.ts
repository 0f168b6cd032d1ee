/**
 * The versioned JSON form of a session (`version: 1`): what is loaded, in which order, with which docs,
 * reads and arguments, the LRU clock, and which tool calls carried which content (for history rewriting).
 * Bodies and file contents are not stored; restoring reads them again from the catalog.
 */
import { z } from "zod";

/** One doc, read or skill item: its instance id (ties tool calls to content) and last use. */
export const SnapshotItem = z.object({
  id: z.string(),
  lastUsed: z.number().int().nonnegative(),
});
export type SnapshotItem = z.infer<typeof SnapshotItem>;

/** A loaded skill. */
export const SnapshotSkill = SnapshotItem.extend({
  name: z.string(),
  args: z.string().optional(),
  allDocs: z.boolean(),
  docs: z.array(SnapshotItem.extend({ path: z.string() })),
});
export type SnapshotSkill = z.infer<typeof SnapshotSkill>;

/** A file read (kept while its skill or the read itself is not evicted). */
export const SnapshotRead = SnapshotItem.extend({
  skill: z.string(),
  path: z.string(),
  startLine: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
});
export type SnapshotRead = z.infer<typeof SnapshotRead>;

/** One piece of content a tool call returned. */
export const CallItem = z.object({
  id: z.string(),
  kind: z.enum(["skill", "doc", "read"]),
  skill: z.string(),
  path: z.string().optional(),
});
export type CallItem = z.infer<typeof CallItem>;

/** A whole session, version 1. */
export const SessionSnapshot = z.object({
  version: z.literal(1),
  id: z.string(),
  namespace: z.string(),
  placement: z.enum(["history", "system"]),
  clock: z.number().int().nonnegative(),
  nextId: z.number().int().nonnegative(),
  /** Loaded skills, oldest load first. */
  loaded: z.array(SnapshotSkill),
  reads: z.array(SnapshotRead),
  /** Last use of every skill ever used (catalog shortening order). */
  usage: z.record(z.string(), z.number().int().nonnegative()),
  /** Tool call id → the content items it returned (to stub them in history once they leave the context). */
  calls: z.record(z.string(), z.array(CallItem)),
  historyTokens: z.number().int().nonnegative(),
});
export type SessionSnapshot = z.infer<typeof SessionSnapshot>;
