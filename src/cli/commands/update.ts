/** `skillrt update [NAME]...`: take what changed upstream of the skills skills-lock.json records. */
import { installSkillFolder, lockEntryFor, updateSkillsLock } from "../../catalog/install-skills.js";
import type { SkillsLockEntry } from "../../catalog/skills-lock.js";
import { failureMessage, openLockedSkills } from "../cli-install.js";
import { defineCommand } from "../define-command.js";
import { writeJson, writeOutput } from "../write-output.js";

const usage = `Usage: skillrt update [NAME]... [--json]

Fetches the source of each skill ./skills-lock.json records (or of NAME...) again and, where the skill's
files changed, installs the new ones into ./.agents/skills/<name>/ and records their hash. Each change is
listed. A changed skill is a changed project skill: its scripts, allowed-tools and !\`cmd\` wait for
\`skillrt trust .agents/skills\` again.

Options:
  --json       print {"updated": [{name, from, to}], "current": [...], "failed": [{name, reason}]}
  -h, --help   show this help

Exit codes: 0 done, 1 some source could not be had, 2 usage error.
`;

/** The `update` command. */
export const updateCommand = defineCommand({
  name: "update",
  summary: "Take upstream changes of the skills in skills-lock.json",
  usage,
  options: { json: { type: "boolean" } },
  maxPositionals: 256,
  async run({ values, positionals }, io) {
    let locked: Awaited<ReturnType<typeof openLockedSkills>>;
    try {
      locked = await openLockedSkills(io, positionals, true, (m) =>
        io.stderr.write(`skillrt update: warning: ${m}\n`),
      );
    } catch (error) {
      io.stderr.write(`skillrt update: ${failureMessage(error)}\n`);
      return 1;
    }
    const updated: { name: string; from: string; to: string }[] = [];
    const current: string[] = [];
    const failed: { name: string; reason: string }[] = [];
    const entries = new Map<string, SkillsLockEntry>();
    for (const skill of locked) {
      if (typeof skill.found === "string" || skill.source === undefined) {
        failed.push({ name: skill.name, reason: String(skill.found) });
        continue;
      }
      if (skill.hash === skill.entry.computedHash) {
        current.push(skill.name);
        continue;
      }
      try {
        const hash = await installSkillFolder(skill.found, io.cwd);
        entries.set(skill.name, { ...skill.entry, ...lockEntryFor(skill.source, skill.found, hash, io.cwd) });
        updated.push({ name: skill.name, from: skill.entry.computedHash, to: hash });
      } catch (error) {
        failed.push({ name: skill.name, reason: `${skill.name}: ${failureMessage(error)}` });
      }
    }
    if (entries.size > 0) await updateSkillsLock(io.cwd, entries);
    if (values.json === true) await writeJson(io.stdout, { updated, current, failed });
    else {
      for (const f of failed) io.stderr.write(`skillrt update: ${f.reason}\n`);
      const lines = [
        ...updated.map((u) => `~ ${u.name}  ${u.from.slice(0, 12)} → ${u.to.slice(0, 12)}\n`),
        ...current.map((n) => `= ${n}  up to date\n`),
      ];
      const trustNote =
        updated.length > 0
          ? " Changed skills wait for `skillrt trust .agents/skills` before their scripts run."
          : "";
      await writeOutput(
        io.stdout,
        `${lines.join("")}Updated ${updated.length}, up to date ${current.length}${failed.length > 0 ? `, failed ${failed.length}` : ""}.${trustNote}\n`,
      );
    }
    return failed.length > 0 ? 1 : 0;
  },
});
