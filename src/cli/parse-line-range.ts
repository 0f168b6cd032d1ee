import type { LineRange } from "../catalog/types.js";

/**
 * Parses a `--lines` value: `A-B`, `A-` (to the end), `-B` (from the start) or `A` (one line), 1-based
 * and inclusive. Returns `undefined` for anything else (including `B < A` and line 0).
 */
export function parseLineRange(text: string): LineRange | undefined {
  const match = /^\s*(\d*)\s*(-?)\s*(\d*)\s*$/.exec(text);
  if (match === null) return undefined;
  const [, startText = "", dash = "", endText = ""] = match;
  if (startText === "" && endText === "") return undefined;
  const start = startText === "" ? undefined : Number(startText);
  const end = endText === "" ? (dash === "" ? start : undefined) : Number(endText);
  if (dash === "" && endText !== "") return undefined;
  if (start !== undefined && start < 1) return undefined;
  if (end !== undefined && end < 1) return undefined;
  if (start !== undefined && end !== undefined && end < start) return undefined;
  return {
    ...(start === undefined ? {} : { startLine: start }),
    ...(end === undefined ? {} : { endLine: end }),
  };
}
