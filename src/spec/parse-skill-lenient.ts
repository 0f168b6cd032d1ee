/**
 * Lenient mode (the runtime default): loads what real skill collections contain. Every repair is a
 * warning with its own code; the skill is `undefined` only when nothing usable is left.
 */
import { buildParsedSkill, isMapping } from "./build-parsed-skill.js";
import { createDiagnostic, type SourcePosition } from "./create-diagnostic.js";
import { looksBinary } from "./decode-skill-text.js";
import { firstParagraph } from "./first-paragraph.js";
import { keyLineInSkillFile, positionInSkillFile } from "./frontmatter-position.js";
import { type LoadNote, loadFrontmatter } from "./load-frontmatter.js";
import type { ParseContext } from "./parse-skill-strict.js";
import { codePointLength, pyStrip } from "./py-text.js";
import { readUnclosedFrontmatter } from "./read-unclosed-frontmatter.js";
import type { YamlRepairKind } from "./repair-frontmatter-yaml.js";
import { allowedToolsFrom } from "./split-allowed-tools.js";
import {
  extractBody,
  type FrontmatterSplit,
  findBodySeparators,
  splitFrontmatterLenient,
} from "./split-frontmatter.js";
import type { DiagnosticCode, FrontmatterValue, ParseSkillResult } from "./types.js";
import { unknownFields } from "./validate-frontmatter.js";
import {
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  validateSkillName,
} from "./validate-skill-name.js";

/** A description that is nothing but a YAML block-scalar header such as `|`, `>-` or `|2+`. */
const BLOCK_INDICATOR_ONLY = /^[|>][-+1-9]{0,2}$/;

type Located = { split: FrontmatterSplit | undefined; fm: Record<string, FrontmatterValue> };

/** Parses decoded, LF-normalised SKILL.md text in lenient mode. */
export function parseSkillLenient(text: string, ctx: ParseContext): ParseSkillResult {
  const { diagnostics, path } = ctx;
  const warn = (code: DiagnosticCode, message: string, at: SourcePosition = {}) =>
    diagnostics.push(createDiagnostic(code, "warning", message, path, at));
  const fail = (code: DiagnosticCode, message: string, at: SourcePosition = {}): ParseSkillResult => {
    diagnostics.push(createDiagnostic(code, "error", message, path, at));
    return { skill: undefined, diagnostics };
  };

  if (pyStrip(text) === "") {
    return fail(
      "frontmatter-missing",
      "SKILL.md is empty: add a frontmatter block with name and description.",
      {
        line: 1,
      },
    );
  }
  const located = locate(text, ctx, warn);
  if ("error" in located) return fail(located.error.code, located.error.message, located.error.at);
  const { split, fm } = located;
  const bodyOffset = split === undefined ? 0 : split.bodyOffset;
  const bodyOffsetLine = split === undefined ? 1 : split.closingLine;
  const lineOf = (key: string) => (split === undefined ? undefined : keyLineInSkillFile(split, key));

  // name
  const dirName = ctx.dirName === undefined || ctx.dirName === "" ? undefined : ctx.dirName;
  const rawName = fm["name"];
  let name = typeof rawName === "string" ? pyStrip(rawName) : "";
  if (name === "") {
    if (dirName === undefined) {
      return fail("name-missing", "SKILL.md has no name: add `name: <skill-name>` to the frontmatter.", {
        line: lineOf("name") ?? 1,
      });
    }
    const why =
      rawName === undefined
        ? "has no name"
        : typeof rawName === "string"
          ? "has an empty name"
          : "has a name that is not a string";
    warn("name-from-directory", `SKILL.md ${why}; using the directory name '${dirName}'.`, {
      line: lineOf("name"),
    });
    name = dirName;
  }
  for (const v of validateSkillName(name, dirName === undefined ? {} : { dirName })) {
    warn(v.code, `${v.message} (loaded anyway).`, { line: lineOf("name") });
  }

  // description
  const rawDescription = fm["description"];
  let description = typeof rawDescription === "string" ? pyStrip(rawDescription) : "";
  // `description: "|"` (a converter quoted the block indicator and lost the text) says nothing.
  const indicatorOnly = BLOCK_INDICATOR_ONLY.test(description);
  if (description === "" || indicatorOnly) {
    const fromBody = looksBinary(text.slice(bodyOffset, bodyOffset + 4096))
      ? ""
      : firstParagraph(text.slice(bodyOffset));
    if (fromBody === "") {
      return fail(
        rawDescription === undefined ? "description-missing" : "description-empty",
        "SKILL.md has no description and its body has no paragraph to use: add `description: <what it does and when to use it>`.",
        { line: lineOf("description") ?? 1 },
      );
    }
    const why = indicatorOnly
      ? `SKILL.md's description is only the block-scalar indicator '${description}', without its text`
      : "SKILL.md has no description";
    warn("description-from-body", `${why}; using the body's first paragraph.`, {
      line: lineOf("description"),
    });
    description = fromBody;
  } else if (typeof rawDescription === "string") {
    const length = codePointLength(rawDescription);
    if (length > MAX_DESCRIPTION_LENGTH) {
      warn(
        "description-too-long",
        `Description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${length} chars) (loaded anyway).`,
        { line: lineOf("description") },
      );
    }
  }

  checkOptionalFields(fm, warn, lineOf);
  const unknown = unknownFields(fm);
  if (unknown.length > 0) {
    warn(
      "unknown-field",
      `Fields outside the spec kept as extras: ${unknown.join(", ")} (strict validators reject them).`,
      { line: lineOf(unknown[0]!) },
    );
  }

  let body = { body: "", line: bodyOffsetLine + 1 };
  if (!ctx.headOnly) {
    body = extractBody(text, bodyOffset, bodyOffsetLine);
    const separators = split === undefined ? [] : findBodySeparators(text, bodyOffset, bodyOffsetLine);
    if (separators.length > 0) {
      warn(
        "body-separator",
        `The body contains a '---' line (line ${separators.join(", ")}); it is kept, but some parsers end the body or the frontmatter there. Use '***' for a horizontal rule.`,
        { line: separators[0] },
      );
    }
  }
  const skill = buildParsedSkill({
    name,
    description,
    frontmatter: fm,
    body: body.body,
    bodyLine: body.line,
  });
  return { skill, diagnostics };
}

type Warn = (code: DiagnosticCode, message: string, at?: SourcePosition) => void;

/** Splits off and loads the frontmatter, with the lenient fallbacks; an `error` when nothing is usable. */
function locate(
  text: string,
  ctx: ParseContext,
  warn: Warn,
): Located | { error: { code: DiagnosticCode; message: string; at: SourcePosition } } {
  let split = splitFrontmatterLenient(text);
  if ("failure" in split) {
    if (split.failure === "missing" || split.yamlStart === undefined) {
      if (looksBinary(text)) {
        return {
          error: { code: "file-binary", message: "SKILL.md looks like a binary file, not Markdown.", at: {} },
        };
      }
      warn(
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
      "frontmatter-unclosed",
      "SKILL.md frontmatter has no closing '---' line; read it up to the first blank line (or the first line that is not YAML).",
      { line: skipped + 1 },
    );
  }
  if (split.skippedLines > 0) {
    warn(
      "frontmatter-offset",
      `${split.skippedLines} line(s) (blank or HTML comments) precede the opening '---' (line ${split.skippedLines + 1}); strict validators need '---' on line 1, so move them below the frontmatter.`,
      {
        line: 1,
      },
    );
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
  for (const note of loaded.notes) reportNote(note, split, warn);
  const value = loaded.value;
  if (isMapping(value)) return { split, fm: value };
  if (value !== null) {
    warn("frontmatter-not-mapping", "SKILL.md frontmatter is not a mapping of fields; it is ignored.", {
      line: split.yamlLine,
    });
  }
  void ctx;
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

function reportNote(note: LoadNote, split: FrontmatterSplit, warn: Warn): void {
  if (note.kind === "repaired") {
    warn("yaml-repaired", REPAIR_MESSAGES[note.repair], { line: split.yamlLine + note.line });
  } else if (note.kind === "dropped") {
    const first = split.yamlLine + note.line;
    const last = split.yamlLine + note.lastLine;
    const where = first === last ? `line ${first}` : `lines ${first}-${last}`;
    warn(
      "yaml-invalid",
      `Invalid YAML in frontmatter (${note.message}); ${where} ignored, the other fields loaded. Quote the value or fix the indentation there.`,
      { line: first },
    );
  } else if (note.kind === "flow-collection") {
    warn(
      "yaml-flow-collection",
      "Flow collection ([...] or {...}) accepted; strict validators reject it. Use a block list ('- item') or a string.",
      positionInSkillFile(split, note.offset),
    );
  } else {
    warn(
      "duplicate-key",
      `Key '${note.key}' is given more than once; the last value is used.`,
      positionInSkillFile(split, note.offset),
    );
  }
}

/** Type and length checks of license, compatibility, allowed-tools and metadata (warnings). */
function checkOptionalFields(
  fm: Record<string, FrontmatterValue>,
  warn: Warn,
  lineOf: (key: string) => number | undefined,
): void {
  const compatibility = fm["compatibility"];
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string") {
      warn("compatibility-invalid-type", "Field 'compatibility' must be a string; it is ignored.", {
        line: lineOf("compatibility"),
      });
    } else if (codePointLength(compatibility) > MAX_COMPATIBILITY_LENGTH) {
      const length = codePointLength(compatibility);
      warn(
        "compatibility-too-long",
        `Compatibility exceeds ${MAX_COMPATIBILITY_LENGTH} character limit (${length} chars) (loaded anyway).`,
        { line: lineOf("compatibility") },
      );
    }
  }
  const license = fm["license"];
  if (license !== undefined && typeof license !== "string") {
    warn("field-invalid-type", "Field 'license' must be a string; it is ignored.", {
      line: lineOf("license"),
    });
  }
  const tools = fm["allowed-tools"];
  if (tools !== undefined) {
    const allowed = allowedToolsFrom(tools);
    if (allowed === undefined || allowed.dropped > 0) {
      warn(
        "field-invalid-type",
        "Field 'allowed-tools' must be a space-separated string or a list of strings; other entries are ignored.",
        { line: lineOf("allowed-tools") },
      );
    }
  }
  const metadata = fm["metadata"];
  if (metadata !== undefined && !isMapping(metadata)) {
    warn("field-invalid-type", "Field 'metadata' must be a mapping of keys to strings; it is ignored.", {
      line: lineOf("metadata"),
    });
  }
}
