/**
 * What a conversation looks like in a `SessionStore`: versioned JSON holding the history, the skill
 * session's snapshot and the model it was held with.
 */
import { type ModelMessage, modelMessageSchema } from "ai";
import { z } from "zod";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { PutBlobs, SessionStore } from "../store/session-store.js";
import { SavedWorkspace } from "./conversation-files.js";

/** Saved form of a conversation (version 1). */
export const SavedConversation = z.object({
  version: z.literal(1),
  messages: z.array(z.unknown()),
  /** The skill session's snapshot (its own versioned shape), or null without a skill layer. */
  skills: z.unknown(),
  model: z.object({ provider: z.string(), modelId: z.string(), baseURL: z.string().optional() }).optional(),
  /** The workspace files the conversation keeps (their contents are the store's blobs). */
  workspace: SavedWorkspace.optional(),
  updatedAt: z.string(),
});
/** Saved form of a conversation (version 1). */
export type SavedConversation = z.infer<typeof SavedConversation>;

/** A conversation read back: messages validated as AI SDK `ModelMessage`s. */
export interface LoadedConversation {
  messages: ModelMessage[];
  skills: unknown;
  model: SavedConversation["model"];
  /** The workspace files saved with it, when any were. */
  workspace: SavedWorkspace | undefined;
  /** The store version read (pass as `expectedVersion` to the next save). */
  version: number;
}

/**
 * Writes a conversation under `id` and returns the store's new version. With `expectedVersion` a write over
 * a conversation someone else saved meanwhile fails with a `StoreConflictError`; without it the last writer
 * wins. `blobs` are the workspace files' contents the write refers to (written in the same transaction).
 */
export async function saveConversation(
  store: SessionStore,
  id: string,
  value:
    | { messages: ModelMessage[]; skills: unknown; model?: SavedConversation["model"] }
    | SavedConversation,
  namespace?: string,
  expectedVersion?: number,
  blobs?: PutBlobs,
): Promise<number> {
  return store.put(id, "version" in value ? value : savedForm(value), {
    ...(namespace === undefined ? {} : { namespace }),
    ...(expectedVersion === undefined ? {} : { expectedVersion }),
    ...(blobs === undefined ? {} : { blobs }),
  });
}

/**
 * The saved form of a conversation as the store will hand it back (JSON round-tripped: Dates become strings,
 * undefined fields go), stamped now.
 */
export function savedForm(value: {
  messages: ModelMessage[];
  skills: unknown;
  model?: SavedConversation["model"];
  workspace?: SavedWorkspace | undefined;
}): SavedConversation {
  const data: SavedConversation = {
    version: 1,
    messages: value.messages,
    skills: value.skills ?? null,
    ...(value.model === undefined ? {} : { model: value.model }),
    ...(value.workspace === undefined ? {} : { workspace: value.workspace }),
    updatedAt: new Date().toISOString(),
  };
  return JSON.parse(JSON.stringify(data)) as SavedConversation;
}

/**
 * Reads the conversation saved under `id`; undefined when there is none. Throws `SkillrtError`
 * (`store-error`) when the stored value is not a valid version-1 conversation.
 */
export async function loadConversation(
  store: SessionStore,
  id: string,
  namespace?: string,
): Promise<LoadedConversation | undefined> {
  const stored = await store.get(id, namespace);
  if (stored === undefined) return undefined;
  const parsed = SavedConversation.safeParse(stored.data);
  const messages = parsed.success ? z.array(modelMessageSchema).safeParse(parsed.data.messages) : undefined;
  if (!parsed.success || messages === undefined || !messages.success) {
    throw new SkillrtError({
      code: "store-error",
      message: `Session '${id}' is not a saved skillrt conversation (version 1). Start a new session or delete this one.`,
    });
  }
  return {
    messages: messages.data,
    skills: parsed.data.skills,
    model: parsed.data.model,
    workspace: parsed.data.workspace,
    version: stored.version,
  };
}
