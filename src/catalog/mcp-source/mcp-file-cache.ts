/**
 * The disk cache of verified MCP skill files. A file lives at `<cacheDir>/mcp-skills/server-<label>/<uri>`
 * (label and URI percent-encoded; a long URI by its hash): same-URI skills of different servers land
 * apart and the server is recoverable from the path. A cached copy is used only while its bytes hash to
 * the digest of the entry in hand, and under the trusted-cache rules (a private directory, no symlinks).
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { readCacheFile, writeCacheFile } from "../../util/trusted-cache.js";
import { sha256Digest } from "./verify-skill-file.js";

/** Largest file the cache keeps (and the client accepts from a server). */
export const MAX_MCP_SKILL_FILE_BYTES = 16 * 1024 * 1024;

/** Verified files by server label and URI. */
export interface McpFileCache {
  /** The cached bytes of `uri` of server `label` when they hash to `digest`; else undefined. */
  get(label: string, uri: string, digest: string): Uint8Array | undefined;
  /** Keeps bytes just verified (errors are ignored: a cache only saves requests). */
  put(label: string, uri: string, bytes: Uint8Array): void;
  /** Where the file of `uri` of `label` is kept. */
  pathOf(label: string, uri: string): string;
}

/** A cache under `cacheDir`, or one that keeps nothing when it is undefined. */
export function createMcpFileCache(cacheDir: string | undefined): McpFileCache {
  const dirOf = (label: string): string =>
    path.join(cacheDir ?? "", "mcp-skills", `server-${encodeURIComponent(label)}`);
  const nameOf = (uri: string): string => {
    const encoded = encodeURIComponent(uri);
    return encoded.length <= 200
      ? encoded
      : `${encoded.slice(0, 120)}~${createHash("sha256").update(uri).digest("hex")}`;
  };
  return {
    get(label, uri, digest) {
      if (cacheDir === undefined) return undefined;
      const bytes = readCacheFile(dirOf(label), nameOf(uri), MAX_MCP_SKILL_FILE_BYTES);
      return bytes !== undefined && sha256Digest(bytes) === digest ? bytes : undefined;
    },
    put(label, uri, bytes) {
      if (cacheDir === undefined) return;
      try {
        writeCacheFile(dirOf(label), nameOf(uri), [bytes]);
      } catch {
        // Not cached: the next read fetches it again.
      }
    },
    pathOf: (label, uri) => path.join(dirOf(label), nameOf(uri)),
  };
}
