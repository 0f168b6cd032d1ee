/**
 * Secret redaction for everything a run returns to the model. Each secret is matched in its plain,
 * hex, base64 (standard and URL-safe, at every byte alignment, so a secret inside a longer encoded
 * string is found too) and URL-encoded forms, ignoring letter case, and also when line breaks were put
 * inside it (wrapped base64, `fold`); a form cut off at the end of capped output is caught by
 * `redactTail`. This stops accidents, not a script that means to leak: every other transformation
 * (reversing, XOR, one character per run, …) gets a secret past it.
 */

/** The replacement for every secret occurrence. */
export const REDACTED = "[redacted]";

/** Shortest secret value that is redacted (shorter values would match ordinary text). Default 4. */
export const MIN_SECRET_LENGTH = 4;

/** Removes secrets from text. */
export interface Redactor {
  /** True when there is at least one secret. */
  readonly active: boolean;
  /**
   * Longest text one match can span (in UTF-16 units, line breaks inside included); callers capture
   * this much beyond a cut before redacting.
   */
  readonly maxFormLength: number;
  /** Replaces every full occurrence of every form (any case, line breaks allowed inside) with `[redacted]`. */
  redact(text: string): string;
  /** Replaces a trailing prefix (≥ 4 characters) of any form, for text that was cut. */
  redactTail(text: string): string;
}

/** Core base64 characters of `secret` when it sits at byte offset `shift` (0–2) of an encoded stream. */
function alignedBase64(secret: Buffer, shift: number): string[] {
  const padded = Buffer.concat([Buffer.alloc(shift), secret]);
  const full = padded.toString("base64");
  const unpadded = full.replace(/=+$/, "");
  // Characters mixing filler bits (before) or unknown following bits (after) are dropped: only the
  // characters made purely of secret bits are stable wherever the secret sits in an encoded stream.
  const start = Math.ceil((shift * 4) / 3);
  const stable = Math.floor((padded.length * 4) / 3);
  const forms = [unpadded.slice(start, stable)];
  if (shift === 0) forms.push(full, unpadded);
  return forms;
}

function formsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = new Set<string>([secret]);
  forms.add(bytes.toString("hex"));
  const uri = encodeURIComponent(secret);
  forms.add(uri);
  forms.add(uri.replace(/%20/g, "+"));
  for (const shift of [0, 1, 2]) {
    for (const form of alignedBase64(bytes, shift)) {
      if (form.length < Math.min(8, secret.length)) continue;
      forms.add(form);
      forms.add(form.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

/** A regular expression source matching `form` with an optional line break after any character. */
function brokenByLines(form: string): string {
  return [...form].map((c) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("(?:\\r?\\n)?");
}

/**
 * Builds a redactor for the given secret values. Values shorter than `MIN_SECRET_LENGTH` are ignored
 * (they are listed in `ignored` so callers can warn).
 */
export function createRedactor(secrets: Iterable<string>): Redactor & { ignored: string[] } {
  const ignored: string[] = [];
  const all = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) {
      if (secret.length > 0) ignored.push(secret);
      continue;
    }
    for (const form of formsOf(secret)) all.add(form);
  }
  const forms = [...all].sort((a, b) => b.length - a.length);
  // Longest first, so the alternation prefers a whole form over a shorter one inside it.
  const pattern = forms.length === 0 ? undefined : new RegExp(forms.map(brokenByLines).join("|"), "gi");
  const lowerForms = forms.map((f) => f.toLowerCase());
  return {
    active: forms.length > 0,
    // Every character may be followed by a CRLF.
    maxFormLength: (forms[0]?.length ?? 0) * 3,
    ignored,
    redact(text) {
      return pattern === undefined ? text : text.replace(pattern, REDACTED);
    },
    redactTail(text) {
      const lower = text.toLowerCase();
      for (const form of lowerForms) {
        for (let len = Math.min(form.length - 1, text.length); len >= MIN_SECRET_LENGTH; len--) {
          if (lower.endsWith(form.slice(0, len))) return text.slice(0, text.length - len) + REDACTED;
        }
      }
      return text;
    },
  };
}

/** A redactor that changes nothing. */
export const NO_REDACTION: Redactor = {
  active: false,
  maxFormLength: 0,
  redact: (text) => text,
  redactTail: (text) => text,
};
