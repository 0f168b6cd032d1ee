/**
 * Bounded capture of one output stream: keeps the first `cap + slack` bytes, counts (and drops) the rest
 * so the child never blocks on a full pipe, then redacts and cuts to `cap` bytes on a UTF-8 boundary.
 */
import { NO_REDACTION, type Redactor } from "./redact.js";

/** Extra bytes kept past the cap so a secret straddling the cut is seen whole. Default 4 KiB. */
export const CAPTURE_SLACK_BYTES = 4096;

/** The finished text of a captured stream. */
export interface CapturedText {
  text: string;
  truncated: boolean;
  /** Bytes the stream carried in total. */
  bytes: number;
}

/** An accumulating, bounded stream capture. */
export interface OutputCapture {
  push(chunk: Buffer): void;
  finish(redactor?: Redactor): CapturedText;
}

/** Largest `n ≤ max` such that `bytes[0, n)` ends on a whole UTF-8 character. */
export function utf8Boundary(bytes: Uint8Array, max: number): number {
  if (max >= bytes.length) return bytes.length;
  let end = max;
  // Step back over continuation bytes (10xxxxxx) to the start of the character the cut falls in.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return end;
}

/** Starts a capture that returns at most `cap` bytes (plus the truncation marker). */
export function createOutputCapture(cap: number, slack = CAPTURE_SLACK_BYTES): OutputCapture {
  const keep = cap + slack;
  const chunks: Buffer[] = [];
  let held = 0;
  let total = 0;
  return {
    push(chunk) {
      total += chunk.length;
      if (held >= keep) return;
      const part = held + chunk.length > keep ? chunk.subarray(0, keep - held) : chunk;
      chunks.push(part);
      held += part.length;
    },
    finish(redactor = NO_REDACTION) {
      const raw = Buffer.concat(chunks, held);
      // `stream: true` holds back a character cut by the capture limit instead of emitting U+FFFD.
      const decoded = new TextDecoder("utf-8", { fatal: false }).decode(raw, { stream: total > held });
      const clean = redactor.redact(decoded);
      const bytes = Buffer.from(clean, "utf8");
      if (bytes.length <= cap && total === held) return { text: clean, truncated: false, bytes: total };
      const end = utf8Boundary(bytes, cap);
      const kept = redactor.redactTail(bytes.subarray(0, end).toString("utf8"));
      const dropped = Math.max(1, total - end);
      return { text: `${kept}\n…[truncated ${dropped} bytes]`, truncated: true, bytes: total };
    },
  };
}
