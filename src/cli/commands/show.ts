import path from "node:path";
import type { Catalog, LineRange } from "../../catalog/types.js";
import { type CaseFallbackResult, readFileCaseFallback } from "../../context/read-with-case-fallback.js";
import { ambiguousSkillMessage, offersQualifiedNames } from "../../errors/skill-not-found-error.js";
import { SkillrtError } from "../../errors/skillrt-error.js";
import { rootOption } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import { defineCommand, usageError } from "../define-command.js";
import { openCliCatalog } from "../open-cli-catalog.js";
import { openMcpSkills } from "../open-mcp-skills.js";
import { parseLineRange } from "../parse-line-range.js";
import { writeJson, writeOutput } from "../write-output.js";

/** `skillrt show`: print a skill's body or one of its files. */
export const showCommand = defineCommand({
  name: "show",
  summary: "Print a skill's instructions or one of its files",
  usage: `Usage: skillrt show NAME [FILE] [--lines A-B] [--root DIR|URL]... [--refresh] [--json]

Print the body of skill NAME (its SKILL.md without the frontmatter), or FILE of the
skill (a path relative to the skill's folder, e.g. references/api.md). Binary files
are described (size, type) instead of printed.

Options:
  --lines A-B  Only lines A to B (1-based, inclusive; 'A-' or '-B' leave an end open) of
               FILE, or of SKILL.md when no FILE is given.
  --root DIR   Look in DIR instead of the default roots (repeatable); also an archive or
               a remote root (URL, git+…; see docs/sources.md). A remote skill's
               source is printed on stderr (in --json: "source").
  --refresh    Fetch remote roots again instead of using their cached copies.
  --json       Print the result as JSON (see docs/cli.md).
  -h, --help   Show this help.

Exit codes: 0 printed, 1 unknown skill or file, or a --root does not exist, 2 usage error.
`,
  options: { ...rootOption, json: { type: "boolean" }, lines: { type: "string" } },
  minPositionals: 1,
  maxPositionals: 2,
  async run({ values, positionals }, io) {
    let range: LineRange | undefined;
    if (values.lines !== undefined) {
      range = parseLineRange(values.lines);
      if (range === undefined)
        return usageError(io, "show", `--lines expects A-B, A- or -B (got '${values.lines}')`);
    }
    const [name = "", file] = positionals;
    // A missing --root fails (exit 1), even when another root holds the skill (which is still printed).
    const opened = await openCliCatalog("show", values.root, io, values.refresh === true);
    // Skills the config's MCP servers serve can be shown too: their SKILL.md or the file asked for is
    // fetched (verified against the listing), nothing else.
    const served = await openMcpSkills(opened.catalog, io);
    try {
      return await showSkill(served.catalog, opened, name, file, range, values.json === true, io);
    } finally {
      await served.close();
    }
  },
});

/** Prints skill `name`'s body, or `file` of it (see the usage); the exit code. */
async function showSkill(
  catalog: Catalog,
  { code, origins }: Pick<Awaited<ReturnType<typeof openCliCatalog>>, "code" | "origins">,
  name: string,
  file: string | undefined,
  range: LineRange | undefined,
  json: boolean,
  io: CliIo,
): Promise<number> {
  const record = catalog.get(name);
  if (record === undefined) return unknownSkill(name, catalog.closest(name), io);
  if (file === undefined && range === undefined) {
    let loaded: Awaited<ReturnType<Catalog["load"]>>;
    try {
      loaded = await catalog.load(name);
    } catch (error) {
      // A SKILL.md that grew past the size limit since the scan: refused, not read.
      if (!SkillrtError.isInstance(error) || error.code !== "file-too-large") throw error;
      io.stderr.write(`skillrt show: ${error.message}\n`);
      return 1;
    }
    const { bodyLine, body } = loaded;
    const { location, dir } = record;
    // A remote or served skill's source: in the JSON, or on stderr (stdout is the body alone, as it is piped).
    const origin = origins.get(record.source);
    const from = origin?.source ?? (record.scope === "mcp" ? record.origin?.label : undefined);
    const source = from === undefined ? {} : { source: from };
    if (!json && from !== undefined) io.stderr.write(`${record.name}: from ${from}\n`);
    await print(io, json, { name: record.name, location, dir, ...source, bodyLine, body }, body);
    return code;
  }
  const result = await readFileCaseFallback(catalog, name, file ?? path.basename(record.location), range);
  return Math.max(code, await printFile(result, catalog, name, json, io));
}

async function printFile(
  result: CaseFallbackResult,
  catalog: Catalog,
  name: string,
  json: boolean,
  io: CliIo,
): Promise<number> {
  switch (result.kind) {
    case "text": {
      const { kind, path: file, mimeType, size, totalLines, startLine, endLine, content } = result;
      const value = { kind, path: file, mimeType, size, totalLines, startLine, endLine, content };
      await print(io, json, value, content);
      return 0;
    }
    case "binary": {
      const { kind, path: file, mimeType, size } = result;
      const text = `${file}: binary file, ${size} bytes, ${mimeType}`;
      await print(io, json, { kind, path: file, mimeType, size }, text);
      return 0;
    }
    case "not-found": {
      if (result.candidates !== undefined) {
        io.stderr.write(
          `skillrt show: no file '${result.path}' in skill '${name}'; these differ from it only in letter case: ` +
            `${result.candidates.join(", ")}. Name one of them exactly.\n`,
        );
        return 1;
      }
      const files = result.available.length > 0 ? ` Files: ${result.available.slice(0, 30).join(", ")}` : "";
      io.stderr.write(`skillrt show: no file '${result.path}' in skill '${name}'.${files}\n`);
      return 1;
    }
    case "refused":
      io.stderr.write(`skillrt show: cannot read '${result.path}' of skill '${name}': ${result.reason}\n`);
      return 1;
    case "unknown-skill":
      return unknownSkill(
        result.name,
        result.closest.length > 0 ? result.closest : catalog.closest(result.name),
        io,
      );
  }
}

function unknownSkill(name: string, closest: readonly string[], io: CliIo): number {
  // A short name several plugins' skills share: the catalog offers exactly their qualified names.
  if (offersQualifiedNames(name, closest)) {
    io.stderr.write(`skillrt show: ${ambiguousSkillMessage(name, closest)}\n`);
    return 1;
  }
  const hint =
    closest.length > 0 ? ` Did you mean: ${closest.join(", ")}?` : " Run 'skillrt list' to see the skills.";
  io.stderr.write(`skillrt show: no skill named '${name}'.${hint}\n`);
  return 1;
}

/** With `--json`, `value` as JSON; else `text`, ending with a newline unless empty. */
function print(io: CliIo, json: boolean, value: object, text: string): Promise<void> {
  if (json) return writeJson(io.stdout, value);
  return writeOutput(io.stdout, text === "" || text.endsWith("\n") ? text : `${text}\n`);
}
