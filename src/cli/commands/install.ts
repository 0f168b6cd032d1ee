/** `skillrt install`: restore exactly what skills-lock.json records (a new machine, a fresh clone). */
import { existsSync } from "node:fs";
import path from "node:path";
import { INSTALL_DIR, installSkillFolder } from "../../catalog/install-skills.js";
import { computeSkillFolderHash } from "../../catalog/skills-lock.js";
import { failureMessage, openLockedSkills } from "../cli-install.js";
import { defineCommand } from "../define-command.js";
import { writeJson, writeOutput } from "../write-output.js";

const usage = `Usage: skillrt install [NAME]... [--json]

Restores the skills ./skills-lock.json records (written by \`skillrt add\` or \`npx skills add\`) into
./.agents/skills/<name>/, each exactly as recorded: a skill is installed only when its source still
holds the same files (its computedHash); one that changed upstream is refused and left as it is, with
\`skillrt update NAME\` named to take the change. A skill already installed with the recorded content is
left alone. Remote sources come from skillrt's cache when it has them (offline too).

Options:
  --json       print {"installed": [...], "present": [...], "failed": [{name, reason}]}
  -h, --help   show this help

Exit codes: 0 everything restored, 1 some skill could not be, 2 usage error.
`;

/** The `install` command. */
export const installCommand = defineCommand({
  name: "install",
  summary: "Restore the skills skills-lock.json records",
  usage,
  options: { json: { type: "boolean" } },
  maxPositionals: 256,
  async run({ values, positionals }, io) {
    const installed: string[] = [];
    const present: string[] = [];
    const failed: { name: string; reason: string }[] = [];
    const warn = (message: string) => io.stderr.write(`skillrt install: warning: ${message}\n`);
    let locked: Awaited<ReturnType<typeof openLockedSkills>>;
    try {
      // A skill already in place with its recorded content needs no source at all.
      locked = await openLockedSkills(io, positionals, false, warn, async (name, entry) => {
        const dir = path.join(io.cwd, INSTALL_DIR, name);
        const inPlace = existsSync(dir) && (await computeSkillFolderHash(dir)) === entry.computedHash;
        if (inPlace) present.push(name);
        return inPlace;
      });
    } catch (error) {
      io.stderr.write(`skillrt install: ${failureMessage(error)}\n`);
      return 1;
    }
    for (const skill of locked) {
      if (typeof skill.found === "string") {
        failed.push({ name: skill.name, reason: skill.found });
        continue;
      }
      if (skill.hash !== skill.entry.computedHash) {
        failed.push({
          name: skill.name,
          reason: `${skill.name}: its source changed since it was locked (recorded ${skill.entry.computedHash.slice(0, 12)}, now ${skill.hash?.slice(0, 12)}); left as it is — run 'skillrt update ${skill.name}' to take the change.`,
        });
        continue;
      }
      try {
        await installSkillFolder(skill.found, io.cwd);
        installed.push(skill.name);
      } catch (error) {
        failed.push({ name: skill.name, reason: `${skill.name}: ${failureMessage(error)}` });
      }
    }
    if (values.json === true) await writeJson(io.stdout, { installed, present, failed });
    else {
      for (const f of failed) io.stderr.write(`skillrt install: ${f.reason}\n`);
      await writeOutput(
        io.stdout,
        `${installed.map((n) => `+ ${n}\n`).join("")}${present.map((n) => `= ${n}\n`).join("")}Restored ${installed.length}, already in place ${present.length}${failed.length > 0 ? `, failed ${failed.length}` : ""}.\n`,
      );
    }
    return failed.length > 0 ? 1 : 0;
  },
});
