/**
 * A conversation's workspace files as part of the conversation (DESIGN decision 24): what a turn leaves in
 * `work/` and `out/` is saved with the conversation, its contents as content-addressed blobs of the store
 * (an unchanged file is stored once), and written back into the fresh workspace wherever the conversation
 * is opened next: another process, another machine sharing the store.
 */
import { z } from "zod";
import type { Workspace } from "../exec/workspace.js";
import {
  type CollectedFiles,
  collectWorkspaceFiles,
  DEFAULT_WORKSPACE_FILE_LIMITS,
  type KnownFiles,
  type NotKeptFile,
  restoreWorkspaceFiles,
  type WorkspaceFileLimits,
} from "../exec/workspace-files.js";
import type { PutBlobs, SessionStore } from "../store/session-store.js";

/** The saved form of a conversation's workspace files (inside its `SavedConversation`). */
export const SavedWorkspace = z.object({
  files: z.array(
    z.object({
      path: z.string().min(1).max(4096),
      digest: z.string().regex(/^[0-9a-f]{64}$/),
      size: z.number().int().min(0),
      mode: z.number().int(),
    }),
  ),
  /** Files the save left out (over a cap, not a regular file), told to the model at the next turn. */
  notKept: z.array(z.object({ path: z.string(), reason: z.string() })),
});
/** The saved form of a conversation's workspace files. */
export type SavedWorkspace = z.infer<typeof SavedWorkspace>;

/** What a save writes: the files' saved form and the contents read (not those known unchanged). */
export interface CapturedWorkspace {
  saved: SavedWorkspace;
  contents: CollectedFiles["contents"];
  /** The files as seen now, for the next capture. */
  known: KnownFiles;
}

/** The caps of `option` (`createSkillAgent`'s `workspaceFiles`): the defaults for what it does not set. */
export function workspaceFileLimits(option: Partial<WorkspaceFileLimits> | undefined): WorkspaceFileLimits {
  return { ...DEFAULT_WORKSPACE_FILE_LIMITS, ...option };
}

/** Whether `store` keeps blobs (the shipped stores do; one of your own may not). */
export function keepsFiles(
  store: SessionStore | undefined,
): store is SessionStore & Required<Pick<SessionStore, "missingBlobs" | "getBlob">> {
  return typeof store?.missingBlobs === "function" && typeof store.getBlob === "function";
}

/** Reads the workspace's kept folders, within `limits`; files `known` vouches for are not read again. */
export async function captureWorkspace(
  workspace: Workspace,
  limits: WorkspaceFileLimits,
  known?: KnownFiles,
): Promise<CapturedWorkspace> {
  const collected = await collectWorkspaceFiles(workspace.root, limits, known);
  return {
    saved: { files: collected.files, notKept: collected.notKept },
    contents: collected.contents,
    known: collected.known,
  };
}

/**
 * The blobs a save of `saved` writes: every digest it refers to, and the bytes of those `store` lacks
 * (asked on every attempt, so a retry after a blob was deleted meanwhile sends it again). A lacking blob
 * whose bytes were not read (its file was known unchanged) is read with `readAll`.
 */
export async function blobsToPut(
  store: SessionStore & Required<Pick<SessionStore, "missingBlobs">>,
  saved: SavedWorkspace,
  contents: CapturedWorkspace["contents"],
  readAll: () => Promise<CapturedWorkspace["contents"]>,
): Promise<PutBlobs> {
  const refs = [...new Set(saved.files.map((f) => f.digest))];
  const missing = await store.missingBlobs(refs);
  let all = contents;
  if (missing.some((digest) => !all.has(digest))) all = new Map([...(await readAll()), ...contents]);
  const add = missing.flatMap((digest) => {
    const bytes = all.get(digest);
    return bytes === undefined ? [] : [{ digest, bytes }];
  });
  return { refs, add };
}

/** Blobs fetched at once while restoring (a remote store answers each in a round trip). */
const FETCH_CONCURRENCY = 8;

/**
 * Writes the saved files into `workspace` (a fresh one), each checked against its digest. Each distinct
 * content is fetched once, several at a time. Returns the files that could not be restored, and why.
 */
export async function restoreConversationFiles(
  store: SessionStore & Required<Pick<SessionStore, "getBlob">>,
  workspace: Workspace,
  saved: SavedWorkspace,
  known: KnownFiles,
): Promise<NotKeptFile[]> {
  const digests = [...new Set(saved.files.map((f) => f.digest))];
  const fetched = new Map<string, Uint8Array | undefined>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < digests.length) {
      const digest = digests[next++] as string;
      fetched.set(digest, await store.getBlob(digest));
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, digests.length) }, worker));
  return restoreWorkspaceFiles(workspace.root, saved.files, async (digest) => fetched.get(digest), known);
}

/**
 * One line for the files, for the user (an event) and the model (a note on its next message). Names come
 * from scripts: control characters (a terminal escape, a line break) are shown as `\xNN`, never passed on.
 */
export function notKeptText(files: readonly NotKeptFile[]): string {
  const shown = files.slice(0, 20).map((f) => `${f.path}: ${f.reason}`);
  if (files.length > shown.length) shown.push(`and ${files.length - shown.length} more`);
  return shown
    .join("; ")
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
