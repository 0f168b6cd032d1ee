/**
 * Token counts kept between processes, in a file of the user's cache directory: a command that renders
 * the same catalog and prompts as the last run (a warm `skillrt ask`) then counts without loading the
 * tokenizer, whose tables cost a few hundred ms of one synchronous block in a fresh process.
 *
 * The file holds one line per text, `<hash> <count>`, where the hash is the first 96 bits of the text's
 * SHA-256 (base64url): the text itself is never written, so a skill's or a conversation's content does
 * not land in the cache. Read once on the first lookup (under the cache rule: a directory that passes
 * `checkCacheDir`, a regular file the user owns, at most {@link MAX_BYTES}); new counts are appended in
 * one write per burst of counting (a `setImmediate` after the first new count), each line whole, so
 * processes counting at the same time only ever add lines. A file past its size is started over.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { checkCacheDir, readCacheFile } from "../util/trusted-cache.js";
import type { TokenEncoding } from "./token-counter.js";

/** Counts known from earlier runs, and new ones to keep. */
export interface TokenCountFile {
  /** The count recorded for `text`, when there is one. */
  get(text: string): number | undefined;
  /** Records `count` for `text` (written soon, in one append with the others of the same burst). */
  add(text: string, count: number): void;
  /** Writes what is pending now (also done on its own right after a burst of counting). */
  flush(): void;
}

/** Past this size the file is started over rather than read (about 40,000 counts). */
export const MAX_BYTES = 1 << 20;
const LINE = /^([A-Za-z0-9_-]{16}) (\d{1,9})$/;

/** The hash a text is kept under. */
const keyOf = (text: string): string => createHash("sha256").update(text).digest("base64url").slice(0, 16);

/** The count file of `encoding` in `cacheDir` (`token-counts-<encoding>.txt`). Never throws. */
export function openTokenCountFile(cacheDir: string, encoding: TokenEncoding): TokenCountFile {
  const name = `token-counts-${encoding}.txt`;
  const file = path.join(cacheDir, name);
  let known: Map<string, number> | undefined;
  let pending: string[] = [];
  let scheduled = false;

  const load = (): Map<string, number> => {
    if (known !== undefined) return known;
    known = new Map();
    const bytes = readCacheFile(cacheDir, name, MAX_BYTES);
    for (const line of bytes?.toString("latin1").split("\n") ?? []) {
      const m = LINE.exec(line);
      if (m?.[1] !== undefined) known.set(m[1], Number(m[2]));
    }
    return known;
  };

  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    try {
      const trust = checkCacheDir(cacheDir, { create: true });
      if (!trust.ok) return;
      // O_NOFOLLOW: a symlink planted at the name is refused; O_NONBLOCK: a FIFO there does not block.
      // Appended; started over past its size.
      const fd = fs.openSync(
        file,
        fs.constants.O_WRONLY |
          fs.constants.O_CREAT |
          fs.constants.O_APPEND |
          fs.constants.O_NOFOLLOW |
          fs.constants.O_NONBLOCK,
        0o600,
      );
      try {
        const stat = fs.fstatSync(fd);
        const uid = process.getuid?.();
        if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) return;
        if (stat.size + text.length > MAX_BYTES) fs.ftruncateSync(fd, 0);
        fs.writeSync(fd, text);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // a cache only ever saves time
    }
  };

  // `add` follows a `get` of the same text (a miss, then counted): its hash is not computed twice.
  let lastText: string | undefined;
  let lastKey = "";
  const hashed = (text: string): string => {
    if (text !== lastText) {
      lastText = text;
      lastKey = keyOf(text);
    }
    return lastKey;
  };

  return {
    get(text) {
      return load().get(hashed(text));
    },
    add(text, count) {
      const key = hashed(text);
      const map = load();
      if (map.get(key) === count) return;
      map.set(key, count);
      pending.push(`${key} ${count}\n`);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush).unref();
      }
    },
    flush,
  };
}
