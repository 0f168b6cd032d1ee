import fs from "node:fs/promises";
import path from "node:path";
import { MAX_DESCRIPTION_LENGTH, validateSkillName } from "../../spec/validate-skill-name.js";
import { defineCommand, usageError } from "../define-command.js";
import { displayPath } from "../format-diagnostic.js";
import { skillTemplate } from "../skill-template.js";

const NAME_RULE =
  "A skill name is 1–64 lowercase letters, digits and hyphens, with no hyphen at the start or end and no '--' (e.g. 'pdf-tools').";

/** `skillrt init`: create a skill skeleton. */
export const initCommand = defineCommand({
  name: "init",
  summary: "Create a new skill skeleton",
  usage: `Usage: skillrt init NAME [--dir DIR] [--description TEXT]

Create NAME/ with a SKILL.md that passes strict validation, plus scripts/ (an example
script), references/ (an example reference), assets/ and evals/cases.yaml (example trigger
evals for 'skillrt eval').

Options:
  --dir DIR           Create the skill inside DIR (default: the current directory).
  --description TEXT  What the skill does and when to use it (1–1024 characters).
                      Default: a placeholder to replace.
  -h, --help          Show this help.

Exit codes: 0 created, 1 the directory already exists or cannot be written, 2 usage error
(including an invalid name).
`,
  options: { dir: { type: "string" }, description: { type: "string" } },
  minPositionals: 1,
  maxPositionals: 1,
  async run({ values, positionals }, io) {
    const name = positionals[0] ?? "";
    const violations = validateSkillName(name, { dirName: name });
    if (violations.length > 0) {
      const reasons = violations.map((v) => `  - ${v.message}`).join("\n");
      return usageError(io, "init", `invalid skill name '${name}':\n${reasons}\n${NAME_RULE}`);
    }
    const description = (
      values.description ?? `Describe what ${name} does and when an agent should use it.`
    ).trim();
    if (description === "" || [...description].length > MAX_DESCRIPTION_LENGTH) {
      return usageError(io, "init", `--description must be 1–${MAX_DESCRIPTION_LENGTH} characters`);
    }
    const parent = path.resolve(io.cwd, values.dir ?? ".");
    const skillDir = path.join(parent, name);
    try {
      await fs.mkdir(parent, { recursive: true });
      await fs.mkdir(skillDir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const shown = displayPath(skillDir, io.cwd);
      io.stderr.write(
        code === "EEXIST"
          ? `skillrt init: ${shown} already exists; choose another name or --dir.\n`
          : `skillrt init: cannot create ${shown}: ${(error as Error).message}\n`,
      );
      return 1;
    }
    const files = skillTemplate(name, description);
    const created: string[] = [];
    for (const [relative, content] of Object.entries(files)) {
      const target = path.join(skillDir, relative);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content, { mode: relative.startsWith("scripts/") ? 0o755 : 0o644 });
      created.push(`  ${displayPath(target, io.cwd)}`);
    }
    const shown = displayPath(skillDir, io.cwd);
    io.stdout.write(
      `Created skill '${name}' in ${shown}:\n${created.join("\n")}\n\nNext: edit ${path.join(shown, "SKILL.md")}, then run:\n  skillrt validate ${shown} --strict\n`,
    );
    return 0;
  },
});
