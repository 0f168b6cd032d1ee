/**
 * Lenient mode (the runtime default): loads what real skill collections contain. Every repair is a
 * warning with its own code; the skill is `undefined` only when nothing usable is left.
 */
import { buildParsedSkill, isMapping } from "./build-parsed-skill.js";
import { createDiagnostic, type SourcePosition } from "./create-diagnostic.js";
import { looksBinary } from "./decode-skill-text.js";
import { fastFrontmatter } from "./fast-frontmatter.js";
import { findSecondFrontmatter } from "./find-second-frontmatter.js";
import { firstParagraph } from "./first-paragraph.js";
import { keyLineInSkillFile, positionInSkillFile } from "./frontmatter-position.js";
import { type LoadNote, loadFrontmatter } from "./load-frontmatter.js";
import type { ParseContext } from "./parse-skill-strict.js";
import { codePointLength, isPyBlank, pyStrip } from "./py-text.js";
import { readUnclosedFrontmatter } from "./read-unclosed-frontmatter.js";
import type { YamlRepairKind } from "./repair-frontmatter-yaml.js";
import { type AllowedTools, allowedToolsFrom } from "./split-allowed-tools.js";
import { extractBody, type FrontmatterSplit, splitFrontmatterLenient } from "./split-frontmatter.js";
import { triggerPatternDiagnostic } from "./trigger-pattern-diagnostic.js";
import type { DiagnosticCode, FrontmatterValue, ParseSkillResult } from "./types.js";
import { compareCodePoints } from "./validate-frontmatter.js";
import {
  isPlainSkillName,
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  validateSkillName,
} from "./validate-skill-name.js";

/** A description that is nothing but a YAML block-scalar header such as `|`, `>-` or `|2+`. */
const BLOCK_INDICATOR_ONLY = /^[|>][-+1-9]{0,2}$/;

type Located = { split: FrontmatterSplit | undefined; fm: Record<string, FrontmatterValue> };
type LocateError = { error: { code: DiagnosticCode; message: string; at: SourcePosition } };

function warn(ctx: ParseContext, code: DiagnosticCode, message: string, at?: SourcePosition): void {
  ctx.diagnostics.push(createDiagnostic(code, "warning", message, ctx.path, at));
}

function fail(
  ctx: ParseContext,
  code: DiagnosticCode,
  message: string,
  at?: SourcePosition,
): ParseSkillResult {
  ctx.diagnostics.push(createDiagnostic(code, "error", message, ctx.path, at));
  return { skill: undefined, diagnostics: ctx.diagnostics };
}

/** SKILL.md line of the top-level `key:` line, when there is a frontmatter and the line is found. */
function lineOf(split: FrontmatterSplit | undefined, key: string): number | undefined {
  return split === undefined ? undefined : keyLineInSkillFile(split, key);
}

/** Parses decoded, LF-normalised SKILL.md text in lenient mode. */
export function parseSkillLenient(text: string, ctx: ParseContext): ParseSkillResult {
  if (isPyBlank(text)) {
    return fail(
      ctx,
      "frontmatter-missing",
      "SKILL.md is empty: add a frontmatter block with name and description.",
      {
        line: 1,
      },
    );
  }
  const located = locate(text, ctx);
  if ("error" in located) return fail(ctx, located.error.code, located.error.message, located.error.at);
  const { split, fm } = located;
  const bodyOffset = split === undefined ? 0 : split.bodyOffset;
  const bodyOffsetLine = split === undefined ? 1 : split.closingLine;

  // name
  const dirName = ctx.dirName === undefined || ctx.dirName === "" ? undefined : ctx.dirName;
  const rawName = fm["name"];
  let name = typeof rawName === "string" ? pyStrip(rawName) : "";
  if (name === "") {
    if (dirName === undefined) {
      return fail(ctx, "name-missing", "SKILL.md has no name: add `name: <skill-name>` to the frontmatter.", {
        line: lineOf(split, "name") ?? 1,
      });
    }
    const why =
      rawName === undefined
        ? "has no name"
        : typeof rawName === "string"
          ? "has an empty name"
          : "has a name that is not a string";
    warn(ctx, "name-from-directory", `SKILL.md ${why}; using the directory name '${dirName}'.`, {
      line: lineOf(split, "name"),
    });
    name = dirName;
  }
  if (name !== dirName || !isPlainSkillName(name)) {
    const violations = validateSkillName(name, dirName === undefined ? NO_OPTIONS : { dirName });
    for (let i = 0; i < violations.length; i++) {
      const v = violations[i]!;
      warn(ctx, v.code, `${v.message} (loaded anyway).`, { line: lineOf(split, "name") });
    }
  }

  // description
  const rawDescription = fm["description"];
  let description = typeof rawDescription === "string" ? pyStrip(rawDescription) : "";
  // `description: "|"` (a converter quoted the block indicator and lost the text) says nothing.
  const first = description.charCodeAt(0);
  const indicatorOnly = (first === 124 || first === 62) && BLOCK_INDICATOR_ONLY.test(description);
  if (description === "" || indicatorOnly) {
    const fromBody = looksBinary(text.slice(bodyOffset, bodyOffset + 4096))
      ? ""
      : firstParagraph(text.slice(bodyOffset));
    if (fromBody === "") {
      return fail(
        ctx,
        rawDescription === undefined ? "description-missing" : "description-empty",
        "SKILL.md has no description and its body has no paragraph to use: add `description: <what it does and when to use it>`.",
        { line: lineOf(split, "description") ?? 1 },
      );
    }
    const why = indicatorOnly
      ? `SKILL.md's description is only the block-scalar indicator '${description}', without its text`
      : "SKILL.md has no description";
    warn(ctx, "description-from-body", `${why}; using the body's first paragraph.`, {
      line: lineOf(split, "description"),
    });
    description = fromBody;
  } else if (typeof rawDescription === "string" && rawDescription.length > MAX_DESCRIPTION_LENGTH) {
    // A string's code point count never exceeds its length: count only when it might be too long.
    const length = codePointLength(rawDescription);
    if (length > MAX_DESCRIPTION_LENGTH) {
      warn(
        ctx,
        "description-too-long",
        `Description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${length} chars) (loaded anyway).`,
        { line: lineOf(split, "description") },
      );
    }
  }

  const allowed = checkOptionalFields(fm, ctx, split);
  let body = "";
  let bodyLine = bodyOffsetLine + 1;
  let separators = NO_SEPARATORS;
  if (!ctx.headOnly) {
    const extracted = extractBody(text, bodyOffset, bodyOffsetLine);
    body = extracted.body;
    bodyLine = extracted.line;
    // Only a body that opens with a frontmatter-like block warns: ordinary '---' rules are Markdown.
    const second = split === undefined ? undefined : findSecondFrontmatter(text, bodyOffset, bodyOffsetLine);
    if (second !== undefined) separators = [second];
  }
  const skill = buildParsedSkill({ name, description, frontmatter: fm, body, bodyLine, allowed });
  // The extras are exactly the fields outside the spec (what `unknownFields` lists, before sorting).
  if (hasOwnKey(skill.extras)) {
    const unknown = Object.keys(skill.extras).sort(compareCodePoints);
    warn(
      ctx,
      "unknown-field",
      `Fields outside the spec kept as extras: ${unknown.join(", ")} (strict validators reject them).`,
      { line: lineOf(split, unknown[0]!) },
    );
    const trigger = triggerPatternDiagnostic(skill.extras);
    if (trigger !== undefined) {
      warn(ctx, "trigger-pattern-unsupported", trigger.message, { line: lineOf(split, trigger.key) });
    }
  }
  if (separators.length > 0) {
    warn(
      ctx,
      "body-separator",
      `The body opens with a second '---' block of 'key: value' lines (line ${separators.join(", ")}); it is kept as body text, but some parsers read it as the frontmatter or end the body there. Move its fields into the frontmatter, or start the body with something else.`,
      { line: separators[0] },
    );
  }
  return { skill, diagnostics: ctx.diagnostics };
}

/** True when `record` has an own enumerable key (without allocating the key list). */
function hasOwnKey(record: object): boolean {
  for (const k in record) if (Object.hasOwn(record, k)) return true;
  return false;
}

const NO_OPTIONS = {};
/** The fast path's flow-list offsets (reused: a parse never interleaves with another). */
const flowOffsets: number[] = [];
const NO_SEPARATORS: readonly number[] = [];

/** Splits off and loads the frontmatter, with the lenient fallbacks; an `error` when nothing is usable. */
function locate(text: string, ctx: ParseContext): Located | LocateError {
  let split = splitFrontmatterLenient(text);
  if ("failure" in split) {
    if (split.failure === "missing" || split.yamlStart === undefined) {
      if (looksBinary(text)) {
        return {
          error: { code: "file-binary", message: "SKILL.md looks like a binary file, not Markdown.", at: {} },
        };
      }
      warn(
        ctx,
        "frontmatter-missing",
        "SKILL.md does not start with a frontmatter block ('---' line, YAML, '---' line); name and description are derived.",
        { line: 1 },
      );
      return { split: undefined, fm: {} };
    }
    // Unclosed: read the frontmatter up to the first blank line or the first line YAML cannot read.
    const skipped = split.skippedLines ?? 0;
    const unclosed = readUnclosedFrontmatter(text, split.yamlStart, skipped);
    if (unclosed === undefined) {
      return {
        error: {
          code: "frontmatter-unclosed",
          message: "SKILL.md frontmatter is not closed: add a '---' line after the YAML.",
          at: { line: skipped + 1 },
        },
      };
    }
    split = unclosed;
    warn(
      ctx,
      "frontmatter-unclosed",
      "SKILL.md frontmatter has no closing '---' line; read it up to the first blank line (or the first line that is not YAML).",
      { line: skipped + 1 },
    );
  }
  if (split.skippedLines > 0) {
    warn(
      ctx,
      "frontmatter-offset",
      `${split.skippedLines} line(s) (blank or HTML comments) precede the opening '---' (line ${split.skippedLines + 1}); strict validators need '---' on line 1, so move them below the frontmatter.`,
      {
        line: 1,
      },
    );
  }
  // The fast path first, here rather than through loadFrontmatter: most files take it, and the
  // wrapper costs an allocation per file. It accepts one-line flow lists (reported as the full parser's
  // are).
  const fast = fastFrontmatter(split.yaml, text, split.yamlOffset, flowOffsets);
  if (fast !== undefined) {
    for (let i = 0; i < flowOffsets.length; i++) {
      reportNote({ kind: "flow-collection", offset: flowOffsets[i]! }, split, ctx);
    }
    return { split, fm: fast };
  }
  const loaded = loadFrontmatter(split.yaml, false);
  if (!loaded.ok) {
    return {
      error: {
        code: "yaml-invalid",
        message: `Invalid YAML in frontmatter: ${loaded.message}. Quote values that contain ': ' or start with a special character.`,
        at: positionInSkillFile(split, loaded.offset),
      },
    };
  }
  for (let i = 0; i < loaded.notes.length; i++) reportNote(loaded.notes[i]!, split, ctx);
  const value = loaded.value;
  if (isMapping(value)) return { split, fm: value };
  if (value !== null) {
    warn(ctx, "frontmatter-not-mapping", "SKILL.md frontmatter is not a mapping of fields; it is ignored.", {
      line: split.yamlLine,
    });
  }
  return { split, fm: {} };
}

const REPAIR_MESSAGES: Record<YamlRepairKind, string> = {
  "quoted-value":
    "Quoted a value YAML cannot read as written (an unquoted ': ' or a leading special character); quote it in SKILL.md.",
  "tab-indentation": "Replaced tab indentation with spaces (YAML forbids tabs for indentation).",
  "quoted-continuation":
    "Indented the continuation lines of a quoted value that spans lines; indent them in SKILL.md.",
  "key-separator":
    "Read 'key：value', 'key:value' or a no-break space after ':' as 'key: value'; write an ASCII colon and a space.",
};

function reportNote(note: LoadNote, split: FrontmatterSplit, ctx: ParseContext): void {
  if (note.kind === "repaired") {
    warn(ctx, "yaml-repaired", REPAIR_MESSAGES[note.repair], { line: split.yamlLine + note.line });
  } else if (note.kind === "dropped") {
    const first = split.yamlLine + note.line;
    const last = split.yamlLine + note.lastLine;
    const where = first === last ? `line ${first}` : `lines ${first}-${last}`;
    warn(
      ctx,
      "yaml-invalid",
      `Invalid YAML in frontmatter (${note.message}); ${where} ignored, the other fields loaded. Quote the value or fix the indentation there.`,
      { line: first },
    );
  } else if (note.kind === "flow-collection") {
    warn(
      ctx,
      "yaml-flow-collection",
      "Flow collection ([...] or {...}) accepted; strict validators reject it. Use a block list ('- item') or a string.",
      positionInSkillFile(split, note.offset),
    );
  } else if (note.kind === "collection-key") {
    warn(
      ctx,
      "field-invalid-type",
      `A key is a list or mapping (${JSON.stringify(note.key)}); it was read as that text. Use a plain key.`,
      positionInSkillFile(split, note.offset),
    );
  } else {
    warn(
      ctx,
      "duplicate-key",
      `Key '${note.key}' is given more than once; the last value is used.`,
      positionInSkillFile(split, note.offset),
    );
  }
}

/**
 * Type and length checks of license, compatibility, allowed-tools and metadata (warnings). Returns
 * `allowed-tools` as read (so the skill is built without reading it again).
 */
function checkOptionalFields(
  fm: Record<string, FrontmatterValue>,
  ctx: ParseContext,
  split: FrontmatterSplit | undefined,
): AllowedTools | undefined {
  const compatibility = fm["compatibility"];
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string") {
      warn(ctx, "compatibility-invalid-type", "Field 'compatibility' must be a string; it is ignored.", {
        line: lineOf(split, "compatibility"),
      });
    } else if (
      compatibility.length > MAX_COMPATIBILITY_LENGTH &&
      codePointLength(compatibility) > MAX_COMPATIBILITY_LENGTH
    ) {
      const length = codePointLength(compatibility);
      warn(
        ctx,
        "compatibility-too-long",
        `Compatibility exceeds ${MAX_COMPATIBILITY_LENGTH} character limit (${length} chars) (loaded anyway).`,
        { line: lineOf(split, "compatibility") },
      );
    }
  }
  const license = fm["license"];
  if (license !== undefined && typeof license !== "string") {
    warn(ctx, "field-invalid-type", "Field 'license' must be a string; it is ignored.", {
      line: lineOf(split, "license"),
    });
  }
  const tools = fm["allowed-tools"];
  let allowed: AllowedTools | undefined;
  if (tools !== undefined) {
    allowed = allowedToolsFrom(tools);
    if (allowed === undefined || allowed.dropped > 0) {
      warn(
        ctx,
        "field-invalid-type",
        "Field 'allowed-tools' must be a space-separated string or a list of strings; other entries are ignored.",
        { line: lineOf(split, "allowed-tools") },
      );
    }
  }
  const metadata = fm["metadata"];
  if (metadata !== undefined && !isMapping(metadata)) {
    warn(ctx, "field-invalid-type", "Field 'metadata' must be a mapping of keys to strings; it is ignored.", {
      line: lineOf(split, "metadata"),
    });
  }
  return allowed;
}
