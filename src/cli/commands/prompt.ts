import { createCatalog } from "../../catalog/create-catalog.js";
import { cliCatalogOptions, rootOption } from "../cli-roots.js";
import { defineCommand, usageError } from "../define-command.js";
import { readPromptEntry } from "../read-prompt-entry.js";
import { type CatalogEntry, type CatalogFormat, catalogFormats, renderCatalog } from "../render-catalog.js";
import { writeOutput } from "../write-output.js";

/** `skillrt prompt`: print the L1 catalog a model would see. */
export const promptCommand = defineCommand({
  name: "prompt",
  summary: "Print the skills catalog for a system prompt",
  usage: `Usage: skillrt prompt [PATH...] [--format list|agentskills|xml|markdown] [--root DIR]...

Print the catalog (name and description of every skill the model may use). Skills with
'disable-model-invocation: true' are left out.

With PATHs (skill directories or SKILL.md files, in the order given) the skills are read
like the reference 'skills-ref to-prompt' does: any unreadable skill aborts with exit 1.
Without PATH, the catalog of the configured roots is printed (sorted by name).

Options:
  --format F   list (default)  '- name: description' lines
               agentskills     skills-ref to-prompt output, byte for byte
               xml             indented <available_skills> with one <skill> per entry
               markdown        '- [○] **name**: description' lines
  --root DIR   Read DIR instead of the default roots (repeatable; ignored with PATHs).
  -h, --help   Show this help.

Exit codes: 0 printed, 1 a PATH could not be read, 2 usage error.
`,
  options: { ...rootOption, format: { type: "string", short: "f" } },
  async run({ values, positionals }, io) {
    const format = values.format ?? "list";
    if (!isFormat(format)) {
      return usageError(io, "prompt", `unknown --format '${format}' (choose ${catalogFormats.join(", ")})`);
    }
    let entries: CatalogEntry[];
    if (positionals.length > 0) {
      entries = [];
      for (const given of positionals) {
        const result = await readPromptEntry(given, io.cwd);
        if (!result.ok) {
          io.stderr.write(`skillrt prompt: ${result.message}\n`);
          return 1;
        }
        entries.push(result.entry);
      }
    } else {
      entries = (await createCatalog(cliCatalogOptions(values.root, io))).list();
    }
    const text = renderCatalog(entries, format);
    if (text === "") {
      io.stderr.write("No skills to show (none found, or all hidden with disable-model-invocation).\n");
      return 0;
    }
    await writeOutput(io.stdout, `${text}\n`);
    return 0;
  },
});

function isFormat(value: string): value is CatalogFormat {
  return (catalogFormats as readonly string[]).includes(value);
}
