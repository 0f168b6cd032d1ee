/** The checks every store applies to blobs, so they refuse the same things with the same words. */
import { createHash } from "node:crypto";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { PutBlobs } from "./session-store.js";

const DIGEST = /^[0-9a-f]{64}$/;

/** Checks a blob digest (64 lower-case hex digits, a sha256); throws `invalid-argument` otherwise. */
export function checkDigest(digest: unknown): string {
  if (typeof digest !== "string" || !DIGEST.test(digest)) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `A blob digest must be a sha256 in 64 lower-case hex digits (got ${JSON.stringify(String(digest).slice(0, 80))}).`,
    });
  }
  return digest;
}

/** A checked {@link PutBlobs}: the referred digests without repeats, and the bytes brought, by digest. */
export interface CheckedBlobs {
  refs: string[];
  add: Map<string, Uint8Array>;
}

/**
 * Checks the blobs of a write: digests well formed, every added blob referred to and its bytes hashing to
 * its digest (so a store never holds bytes under a name that is not theirs). Throws `invalid-argument`.
 */
export function checkPutBlobs(id: string, blobs: PutBlobs): CheckedBlobs {
  const refs = [...new Set(blobs.refs.map(checkDigest))];
  const referred = new Set(refs);
  const add = new Map<string, Uint8Array>();
  for (const blob of blobs.add ?? []) {
    const digest = checkDigest(blob.digest);
    const actual = createHash("sha256").update(blob.bytes).digest("hex");
    if (actual !== digest || !referred.has(digest)) {
      throw new SkillrtError({
        code: "invalid-argument",
        message:
          actual !== digest
            ? `Session '${id}': a blob's bytes hash to ${actual}, not to its digest ${digest}; nothing was written.`
            : `Session '${id}': blob ${digest} is added but not among the write's refs; nothing was written.`,
      });
    }
    add.set(digest, blob.bytes);
  }
  return { refs, add };
}

/** The error of a write referring to a blob the store lacks (retryable: ask `missingBlobs` again). */
export function missingBlobError(id: string, namespace: string, digest: string, where: string): SkillrtError {
  return new SkillrtError({
    code: "store-error",
    message:
      `Session '${id}' (namespace '${namespace}') refers to blob ${digest}, which ${where} does not hold ` +
      "(deleted meanwhile with another conversation?); nothing was written. Ask missingBlobs again and retry.",
  });
}
