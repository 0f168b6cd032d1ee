/**
 * Strict mode: the agentskills reference validator (skills-ref) reproduced — its frontmatter split,
 * its YAML dialect, its checks in its order with its messages. One early-exit error, or every
 * accumulated finding, exactly as `skills-ref validate` would list them.
 */
import { buildParsedSkill, isMapping } from "./build-parsed-skill.js";
import { createDiagnostic } from "./create-diagnostic.js";
import { keyLineInSkillFile, positionInSkillFile } from "./frontmatter-position.js";
import { loadFrontmatter } from "./load-frontmatter.js";
import { pyStrip } from "./py-text.js";
import { extractBody, type FrontmatterSplit, splitFrontmatterStrict } from "./split-frontmatter.js";
import type { Diagnostic, FrontmatterValue, ParseSkillResult } from "./types.js";
import { validateFrontmatter } from "./validate-frontmatter.js";

/** Context shared by both modes. */
export interface ParseContext {
  path: string;
  dirName: string | undefined;
  headOnly: boolean;
  /** Findings so far (decoding); parsing appends to it. */
  diagnostics: Diagnostic[];
}

/** The reference's `parse_frontmatter` result: the mapping (metadata not yet coerced) and where it was. */
export type StrictFrontmatter =
  | { ok: true; frontmatter: Record<string, FrontmatterValue>; split: FrontmatterSplit }
  | { ok: false; diagnostic: Diagnostic };

/**
 * The reference's `parse_frontmatter` on decoded text: its early-exit errors (`frontmatter-missing`,
 * `frontmatter-unclosed`, `yaml-invalid`, `frontmatter-not-mapping`) with its exact messages.
 */
export function parseFrontmatterStrict(text: string, path: string): StrictFrontmatter {
  const split = splitFrontmatterStrict(text);
  if ("failure" in split) {
    const missing = split.failure === "missing";
    const diagnostic = createDiagnostic(
      missing ? "frontmatter-missing" : "frontmatter-unclosed",
      "error",
      missing
        ? "SKILL.md must start with YAML frontmatter (---)"
        : "SKILL.md frontmatter not properly closed with ---",
      path,
      { line: 1, column: 1 },
    );
    return { ok: false, diagnostic };
  }
  const loaded = loadFrontmatter(split.yaml, true);
  if (!loaded.ok) {
    const message = `Invalid YAML in frontmatter: ${loaded.message}`;
    const at = positionInSkillFile(split, loaded.offset);
    return { ok: false, diagnostic: createDiagnostic("yaml-invalid", "error", message, path, at) };
  }
  const fm = loaded.value;
  if (!isMapping(fm)) {
    const message = "SKILL.md frontmatter must be a YAML mapping";
    const at = { line: split.yamlLine };
    return { ok: false, diagnostic: createDiagnostic("frontmatter-not-mapping", "error", message, path, at) };
  }
  return { ok: true, frontmatter: fm, split };
}

/** Parses decoded SKILL.md text in strict mode. */
export function parseSkillStrict(text: string, ctx: ParseContext): ParseSkillResult {
  const { diagnostics, path } = ctx;
  const fail = (): ParseSkillResult => ({ skill: undefined, diagnostics });
  const parsed = parseFrontmatterStrict(text, path);
  if (!parsed.ok) {
    diagnostics.push(parsed.diagnostic);
    return fail();
  }
  const { frontmatter: fm, split } = parsed;
  const options = ctx.dirName === undefined ? {} : { dirName: ctx.dirName };
  for (const v of validateFrontmatter(fm, options)) {
    const line = v.field === undefined ? split.yamlLine : keyLineInSkillFile(split, v.field);
    diagnostics.push(createDiagnostic(v.code, "error", v.message, path, { line }));
  }
  const name = fm["name"];
  const description = fm["description"];
  if (typeof name !== "string" || typeof description !== "string") return fail();
  const trimmedName = pyStrip(name);
  const trimmedDescription = pyStrip(description);
  if (trimmedName === "" || trimmedDescription === "") return fail();
  const body = ctx.headOnly
    ? { body: "", line: split.closingLine + 1 }
    : extractBody(text, split.bodyOffset, split.closingLine);
  const skill = buildParsedSkill({
    name: trimmedName,
    description: trimmedDescription,
    frontmatter: fm,
    body: body.body,
    bodyLine: body.line,
  });
  return { skill, diagnostics };
}
