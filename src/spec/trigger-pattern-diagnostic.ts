/**
 * The load-time check of a skill's `triggerPattern`: a pattern the bounded matcher cannot run (invalid,
 * over-long, or needing backtracking such as a backreference or lookaround) never activates its skill,
 * and says so here instead of failing silently at every turn.
 */
import { compileTriggerPattern } from "./compile-trigger-pattern.js";
import type { FrontmatterValue } from "./types.js";

/** The frontmatter keys of a trigger pattern (peterbot's spelling first). */
export const TRIGGER_PATTERN_KEYS = ["triggerPattern", "trigger-pattern", "trigger_pattern"] as const;

/** Longest pattern considered; longer ones never match. */
export const MAX_TRIGGER_PATTERN_LENGTH = 500;

/** The key and a message when `extras` holds a trigger pattern that will never match; else undefined. */
export function triggerPatternDiagnostic(
  extras: Record<string, FrontmatterValue>,
): { key: string; message: string } | undefined {
  for (const key of TRIGGER_PATTERN_KEYS) {
    const value = extras[key];
    if (typeof value !== "string" || value.trim() === "") continue;
    const pattern = value.trim();
    const reason =
      pattern.length > MAX_TRIGGER_PATTERN_LENGTH
        ? `it is longer than ${MAX_TRIGGER_PATTERN_LENGTH} characters`
        : (() => {
            const compiled = compileTriggerPattern(pattern);
            return compiled.ok ? undefined : compiled.reason;
          })();
    if (reason === undefined) return undefined;
    return {
      key,
      message: `Field '${key}' is never matched: ${reason}. Rewrite it without backreferences or lookaround (alternatives and \\b usually do), or remove it and let the model choose the skill.`,
    };
  }
  return undefined;
}
