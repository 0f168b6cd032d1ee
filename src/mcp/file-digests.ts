/**
 * SHA-256 digests of files (`sha256:<64 hex>`, SEP-2640's form) with the byte length they cover, computed
 * on first use and kept by file
 * identity: a file whose device, inode, size and times are unchanged — and had settled when it was
 * hashed (see `SETTLE_MS`) — is not read again; any change to it is hashed anew. One cache per catalog
 * serves every MCP session of a process.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import fs from "node:fs/promises";
import { type FileIdentity, fileIdentity, unchangedSince } from "../catalog/file-identity.js";

/** The digest of `bytes` in SEP-2640's form. */
export function sha256Digest(bytes: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** A file's digest and the length of the bytes it covers (SEP-2640's `size`: the same bytes). */
export interface Digested {
  digest: string;
  size: number;
}

/** A digest cache (see the module comment). */
export interface FileDigests {
  /** The digest and size of the file at `abs` (an absolute real path). Rejects when it cannot be read. */
  digest(abs: string): Promise<Digested>;
  /** Records the digest of bytes just read from `abs` with identity `stat`, read at `readAt`. */
  remember(abs: string, stat: FileIdentity, readAt: number, bytes: Uint8Array): Digested;
}

interface Known {
  identity: FileIdentity;
  readAt: number;
  digested: Digested;
}

/** A new, empty digest cache. */
export function createFileDigests(): FileDigests {
  const known = new Map<string, Known>();
  // Sessions listing at once hash a file once.
  const hashing = new Map<string, Promise<Digested>>();
  const remember = (abs: string, identity: FileIdentity, readAt: number, bytes: Uint8Array): Digested => {
    const digested = { digest: sha256Digest(bytes), size: bytes.length };
    known.set(abs, { identity, readAt, digested });
    return digested;
  };
  return {
    remember,
    async digest(abs) {
      // A stat is microseconds: synchronous, it skips the thread pool that a page of hundreds would queue on.
      const stat = fileIdentity(statSync(abs));
      const cached = known.get(abs);
      if (cached !== undefined && unchangedSince(cached.identity, cached.readAt, stat))
        return cached.digested;
      const running = hashing.get(abs);
      if (running !== undefined) return running;
      const hashed = (async () => {
        const readAt = Date.now();
        const handle = await fs.open(abs, "r");
        try {
          const opened = fileIdentity(await handle.stat());
          return remember(abs, opened, readAt, await handle.readFile());
        } finally {
          await handle.close();
        }
      })();
      hashing.set(abs, hashed);
      try {
        return await hashed;
      } finally {
        hashing.delete(abs);
      }
    },
  };
}
