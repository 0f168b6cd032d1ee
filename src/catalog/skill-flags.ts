import type { FrontmatterValue } from "../spec/types.js";
import type { SkillRecord } from "./types.js";

/** The behaviour flags a record carries, read from frontmatter extras. */
export type SkillFlags = Pick<SkillRecord, "disableModelInvocation" | "userInvocable" | "active">;

/**
 * Reads the flags from frontmatter extras. Values are strings under failsafe YAML, so `true`/`yes`/`on`/`1`
 * and `false`/`no`/`off`/`0` (any case) are understood; anything else keeps the default.
 * `disable-model-invocation` (default false), `user-invocable` (default true), `active` (default false);
 * the snake_case spellings are accepted too.
 */
export function skillFlags(extras: Record<string, FrontmatterValue>): SkillFlags {
  let empty = true;
  for (const _ in extras) {
    empty = false;
    break;
  }
  if (empty) return { disableModelInvocation: false, userInvocable: true, active: false };
  return {
    disableModelInvocation: flag(extras, ["disable-model-invocation", "disable_model_invocation"], false),
    userInvocable: flag(extras, ["user-invocable", "user_invocable"], true),
    active: flag(extras, ["active"], false),
  };
}

function flag(extras: Record<string, FrontmatterValue>, keys: string[], fallback: boolean): boolean {
  for (const key of keys) {
    const parsed = parseBoolean(extras[key]);
    if (parsed !== undefined) return parsed;
  }
  return fallback;
}

/** `"true"`, `"yes"`, `"on"`, `"1"` → true; `"false"`, `"no"`, `"off"`, `"0"` → false; else undefined. */
export function parseBoolean(value: FrontmatterValue | undefined): boolean | undefined {
  if (typeof value !== "string") return undefined;
  switch (value.trim().toLowerCase()) {
    case "true":
    case "yes":
    case "on":
    case "1":
      return true;
    case "false":
    case "no":
    case "off":
    case "0":
      return false;
    default:
      return undefined;
  }
}
