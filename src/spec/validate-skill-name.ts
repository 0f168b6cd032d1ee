/**
 * The `name` rules of the Agent Skills spec, as the reference validator (skills-ref) applies them:
 * strip, NFKC, then length, case, hyphens, characters and the directory match, all of which can fire.
 */
import { codePointLength, pyStrip } from "./py-text.js";
import type { DiagnosticCode } from "./types.js";

/** Longest name allowed, in code points after NFKC. */
export const MAX_NAME_LENGTH = 64;
/** Longest description allowed, in code points of the raw value. */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Longest compatibility allowed, in code points of the raw value. */
export const MAX_COMPATIBILITY_LENGTH = 500;

/** One broken rule: a stable code and the reference validator's message. */
export interface RuleViolation {
  code: DiagnosticCode;
  message: string;
}

/** Options of {@link validateSkillName}. */
export interface ValidateSkillNameOptions {
  /** Name of the directory holding SKILL.md; when given, the name must equal its NFKC form. */
  dirName?: string;
  /** Accept only `a-z`, `0-9` and `-` (the spec's examples) instead of any Unicode letter or digit. Default `false` (the reference). */
  asciiOnly?: boolean;
}

const NAME_CHARS = /^[\p{L}\p{N}-]*$/u;
const ASCII_NAME_CHARS = /^[a-z0-9-]*$/;
/** ASCII lowercase letters and digits in runs joined by single hyphens. */
const PLAIN_VALID_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * True for a name no rule of {@link validateSkillName} can reject, the directory match aside: at most
 * {@link MAX_NAME_LENGTH} ASCII lowercase letters and digits in runs joined by single hyphens (strip
 * and NFKC leave such a name as it is). A cheap test for the usual case; `false` says nothing.
 */
export function isPlainSkillName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && PLAIN_VALID_NAME.test(name);
}

/**
 * Checks a skill name against the spec's rules, in the reference validator's order and with its exact
 * messages. A blank name yields `name-empty` only. Returns `[]` when the name is valid.
 */
export function validateSkillName(name: string, options: ValidateSkillNameOptions = {}): RuleViolation[] {
  if ((options.dirName === undefined || options.dirName === name) && isPlainSkillName(name)) return [];
  const stripped = pyStrip(name);
  if (stripped === "") return [{ code: "name-empty", message: "Field 'name' must be a non-empty string" }];
  const n = stripped.normalize("NFKC");
  const out: RuleViolation[] = [];
  const length = codePointLength(n);
  if (length > MAX_NAME_LENGTH) {
    out.push({
      code: "name-too-long",
      message: `Skill name '${n}' exceeds ${MAX_NAME_LENGTH} character limit (${length} chars)`,
    });
  }
  if (n !== n.toLowerCase())
    out.push({ code: "name-not-lowercase", message: `Skill name '${n}' must be lowercase` });
  if (n.startsWith("-") || n.endsWith("-")) {
    out.push({ code: "name-hyphen-edge", message: "Skill name cannot start or end with a hyphen" });
  }
  if (n.includes("--")) {
    out.push({ code: "name-consecutive-hyphens", message: "Skill name cannot contain consecutive hyphens" });
  }
  if (!(options.asciiOnly ? ASCII_NAME_CHARS : NAME_CHARS).test(n)) {
    out.push({
      code: "name-invalid-characters",
      message: `Skill name '${n}' contains invalid characters. Only letters, digits, and hyphens are allowed.`,
    });
  }
  if (options.dirName !== undefined && options.dirName.normalize("NFKC") !== n) {
    out.push({
      code: "name-directory-mismatch",
      message: `Directory name '${options.dirName}' must match skill name '${n}'`,
    });
  }
  return out;
}

/** True when `name` passes every rule of {@link validateSkillName} (directory match included when `dirName` is given). */
export function isValidSkillName(name: string, options: ValidateSkillNameOptions = {}): boolean {
  return validateSkillName(name, options).length === 0;
}
