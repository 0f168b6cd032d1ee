/**
 * How an agent saves its conversation: the snapshot (history, skills, model, workspace files) written
 * with optimistic concurrency on the version it last read or wrote, the workspace's files captured into
 * it when the agent keeps them, and — for a turn's save — retried while the store is down, a write whose
 * answer was lost recognised as its own, and a give-up handed over as an `UnsavedTurnError` holding the turn.
 */
import type { ModelMessage } from "ai";
import type { SkillSession } from "../context/skill-session.js";
import { UnsavedTurnError } from "../errors/unsaved-turn-error.js";
import type { Workspace } from "../exec/workspace.js";
import type { KnownFiles, NotKeptFile, WorkspaceFileLimits } from "../exec/workspace-files.js";
import type { PutBlobs, SessionStore } from "../store/session-store.js";
import { StoreConflictError } from "../store/store-conflict-error.js";
import {
  blobsToPut,
  type CapturedWorkspace,
  captureWorkspace,
  notKeptText,
  type SavedWorkspace,
} from "./conversation-files.js";
import type { EngineEvent } from "./engine-event.js";
import { DEFAULT_SAVE_RETRY_MS, saveWithRetry } from "./save-with-retry.js";
import { type SavedConversation, saveConversation, savedForm } from "./saved-conversation.js";

/** A store that keeps workspace files (see `keepsFiles`). */
type FilesStore = SessionStore & Required<Pick<SessionStore, "missingBlobs" | "getBlob">>;

/** What the saver reads (and, for the files, updates) of the agent's current conversation. */
export interface SavedParts {
  id: string;
  history: ModelMessage[];
  session: SkillSession;
  workspace: Workspace | undefined;
  /** The workspace files as last saved or restored (carried as they are when the agent keeps none). */
  files: SavedWorkspace | undefined;
  /** Files not kept or not restored, for a note on the model's next message. */
  notKept: NotKeptFile[];
  /** The kept files as last captured or restored: unchanged ones are not read again. */
  known: KnownFiles;
}

/** Options of {@link createConversationSaver}. */
export interface ConversationSaverOptions {
  store: SessionStore;
  /** The store namespace of conversations. */
  namespace: string;
  /** The model the snapshot names. */
  model: SavedConversation["model"];
  /** The conversation now (the agent replaces it on reset and when another engine saved meanwhile). */
  conversation: () => SavedParts;
  /** Set when the agent keeps its workspace files (a store that holds blobs, and limits). */
  files?: { store: FilesStore; limits: WorkspaceFileLimits };
  /** How long a turn's save is retried. Default {@link DEFAULT_SAVE_RETRY_MS}. */
  retryMs?: number;
  /** The version stored when the agent opened (0: never saved). */
  version: number;
}

/** See the module comment. */
export interface ConversationSaver {
  /** The version this agent last read or wrote (0: never saved). */
  version: number;
  /** Saves now, once (a user's load between turns, `agent.save()`). */
  save(): Promise<void>;
  /**
   * A turn's save: says which files were not kept, then writes, retrying while the store is down.
   * `beforeWrite` runs before each attempt (the lock taken at a conversation's first save).
   */
  saveTurn(turn: {
    emit: (event: EngineEvent) => void;
    step: () => number;
    beforeWrite?: () => Promise<void>;
  }): Promise<void>;
}

/** See the module comment. */
export function createConversationSaver(options: ConversationSaverOptions): ConversationSaver {
  const { store, namespace, files } = options;
  const currentForm = (): SavedConversation => {
    const conversation = options.conversation();
    return savedForm({
      messages: conversation.history,
      skills: conversation.session.snapshot(),
      model: options.model,
      workspace: conversation.files,
    });
  };
  /**
   * Reads the workspace's files into the conversation, when the agent keeps them; returns their contents
   * (undefined: the saved files are carried as they are, and the store's references left alone).
   */
  const captureFiles = async (): Promise<CapturedWorkspace["contents"] | undefined> => {
    const current = options.conversation();
    if (files === undefined || current.workspace === undefined) return undefined;
    try {
      const captured = await captureWorkspace(current.workspace, files.limits, current.known);
      current.files = captured.saved;
      current.notKept = [...captured.saved.notKept];
      current.known = captured.known;
      return captured.contents;
    } catch (error) {
      // The conversation is still saved, with the files as they were last saved.
      current.notKept = [{ path: "work/, out/", reason: `could not be read (${errorText(error)})` }];
      return undefined;
    }
  };
  /** The blobs a write of `data` refers to and the ones the store lacks, when the agent keeps files. */
  const blobsFor = async (
    data: SavedConversation,
    contents: CapturedWorkspace["contents"] | undefined,
  ): Promise<PutBlobs | undefined> => {
    const { workspace } = options.conversation();
    if (contents === undefined || files === undefined || data.workspace === undefined) return undefined;
    // Files known unchanged are read again only if the store lacks their content (it should not: it is referred to).
    const readAll = async () =>
      workspace === undefined
        ? new Map<string, Uint8Array>()
        : (await captureWorkspace(workspace, files.limits)).contents;
    return blobsToPut(files.store, data.workspace, contents, readAll);
  };
  /** The version of `id` in the store when what is stored there is `data` (same stamp, same history). */
  const ownWrite = async (id: string, data: SavedConversation): Promise<number | undefined> => {
    const stored = await store.get(id, namespace);
    const saved = stored?.data as Partial<SavedConversation> | undefined;
    return saved?.updatedAt === data.updatedAt && saved.messages?.length === data.messages.length
      ? stored?.version
      : undefined;
  };

  const saver: ConversationSaver = {
    version: options.version,
    async save() {
      const contents = await captureFiles();
      const data = currentForm();
      const { id } = options.conversation();
      saver.version = await saveConversation(
        store,
        id,
        data,
        namespace,
        saver.version,
        await blobsFor(data, contents),
      );
    },
    async saveTurn({ emit, step, beforeWrite }) {
      // What the turn ends with, fixed now: every attempt writes the same, and a give-up hands it over.
      const contents = await captureFiles();
      const data = currentForm();
      const { id, notKept } = options.conversation();
      if (notKept.length > 0) {
        emit({
          type: "files-not-kept",
          step: step(),
          files: [...notKept],
          message: `workspace files not kept with the conversation: ${notKeptText(notKept)}`,
        });
      }
      const expected = saver.version;
      let attempts = 0;
      await saveWithRetry(
        async () => {
          attempts += 1;
          await beforeWrite?.();
          try {
            saver.version = await saveConversation(
              store,
              id,
              data,
              namespace,
              expected,
              await blobsFor(data, contents),
            );
          } catch (error) {
            // A retry after a commit whose answer was lost (the server went down right after it) meets its
            // own write: that is this save done, not a conflict.
            const own =
              attempts > 1 && StoreConflictError.isInstance(error) ? await ownWrite(id, data) : undefined;
            if (own === undefined) throw error;
            saver.version = own;
          }
        },
        {
          retryMs: options.retryMs ?? DEFAULT_SAVE_RETRY_MS,
          onFirstFailure: (error, retryMs) =>
            emit({
              type: "save-retry",
              step: step(),
              retryMs,
              message:
                `the session store could not save the turn (${errorText(error)}); ` +
                `retrying for up to ${Math.round(retryMs / 1000)} s`,
            }),
          giveUp: (error, retriedMs) =>
            new UnsavedTurnError({
              sessionId: id,
              conversation: data,
              expectedVersion: expected,
              retriedMs,
              cause: error,
            }),
        },
      );
    },
  };
  return saver;
}

/** An error's message, for a one-line notice. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
