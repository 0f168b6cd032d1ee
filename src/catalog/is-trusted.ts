/**
 * The trust check every source shares: a root is trusted when the user recorded trust for its origin and
 * its content still has the digest recorded then. Kept small and pure so any skill source (filesystem and
 * remote roots, skills served over MCP) asks the same question.
 */
import type { TrustOrigin, TrustRecord } from "./trust-record.js";

/** Whether two origins are the same source. */
export function sameOrigin(a: TrustOrigin, b: TrustOrigin): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/**
 * Whether `records` trust the source `origin` whose content now digests to `digest`. A record for the
 * same origin with another digest does not: the source changed since it was trusted.
 */
export function isTrusted(origin: TrustOrigin, digest: string, records: readonly TrustRecord[]): boolean {
  return records.some((record) => sameOrigin(record.origin, origin) && record.digest === digest);
}

/** The record `records` hold for `origin`, whatever its digest. */
export function trustRecordOf(origin: TrustOrigin, records: readonly TrustRecord[]): TrustRecord | undefined {
  return records.find((record) => sameOrigin(record.origin, origin));
}
