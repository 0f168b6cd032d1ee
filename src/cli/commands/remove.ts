/** `skillrt remove NAME...`: uninstall skills added with `skillrt add` (or `npx skills add`). */
import { removeSkillFolder, updateSkillsLock } from "../../catalog/install-skills.js";
import { readSkillsLock, type SkillsLockEntry } from "../../catalog/skills-lock.js";
import { defineCommand, usageError } from "../define-command.js";
import { writeJson, writeOutput } from "../write-output.js";

const usage = `Usage: skillrt remove NAME... [--json]

Removes each skill's folder from ./.agents/skills/ and its entry from ./skills-lock.json.

Options:
  --json       print {"removed": [...], "unknown": [...]}
  -h, --help   show this help

Exit codes: 0 removed, 1 a name is neither installed nor in the lock, 2 usage error.
`;

/** The `remove` command. */
export const removeCommand = defineCommand({
  name: "remove",
  summary: "Uninstall skills (.agents/skills and skills-lock.json)",
  usage,
  options: { json: { type: "boolean" } },
  maxPositionals: 64,
  async run({ values, positionals }, io) {
    if (positionals.length === 0) return usageError(io, "remove", "name the skills to remove.");
    const read = await readSkillsLock(io.cwd);
    const locked = read !== undefined && "lock" in read ? read.lock.skills : {};
    const removed: string[] = [];
    const unknown: string[] = [];
    const entries = new Map<string, SkillsLockEntry | undefined>();
    for (const name of positionals) {
      const had = await removeSkillFolder(name, io.cwd);
      if (Object.hasOwn(locked, name)) entries.set(name, undefined);
      if (had || Object.hasOwn(locked, name)) removed.push(name);
      else unknown.push(name);
    }
    if (entries.size > 0) await updateSkillsLock(io.cwd, entries);
    if (values.json === true) await writeJson(io.stdout, { removed, unknown });
    else
      await writeOutput(
        io.stdout,
        `${removed.map((n) => `- ${n}\n`).join("")}${unknown.map((n) => `? ${n}: not installed\n`).join("")}`,
      );
    return unknown.length > 0 ? 1 : 0;
  },
});
