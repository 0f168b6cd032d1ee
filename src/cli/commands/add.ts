/** `skillrt add SOURCE`: install skills into the project and record them in skills-lock.json. */
import path from "node:path";
import {
  installSkillFolder,
  lockEntryFor,
  openSource,
  parseInstallSource,
  updateSkillsLock,
} from "../../catalog/install-skills.js";
import type { SkillsLockEntry } from "../../catalog/skills-lock.js";
import { cliFetchOptions, failureMessage, isDirectory } from "../cli-install.js";
import { defineCommand, usageError } from "../define-command.js";
import { writeJson, writeOutput } from "../write-output.js";

const usage = `Usage: skillrt add SOURCE [--skill NAME]... [--list] [--json]

Installs the skills of SOURCE into ./.agents/skills/<name>/ and records each in ./skills-lock.json,
written exactly as \`npx skills add\` writes it, so both tools can share one project.

SOURCE is one of:
  ./path/to/folder             a local folder of skills (recorded relative to the project)
  owner/repo[#REF]             a GitHub repository (https://github.com/owner/repo.git)
  https://host/x.git[#REF]     a git repository (also git+…, ssh://…, file:///….git)
  https://example.com/         a site's agent skills index (/.well-known/agent-skills/index.json)

Remote sources are fetched like remote roots (see docs/sources.md): checked, cached, and reused offline.
Installed skills are project skills: their scripts, allowed-tools and !\`cmd\` wait for
\`skillrt trust .agents/skills\`.

Options:
  --skill NAME  install only this skill (repeatable; default: every skill of SOURCE)
  --list        list the skills of SOURCE without installing
  --json        print {"installed": [{name, dir, entry}], "skipped": [...]}
  -h, --help    show this help

Exit codes: 0 installed, 1 the source could not be had or a named skill is not in it, 2 usage error.
`;

/** The `add` command. */
export const addCommand = defineCommand({
  name: "add",
  summary: "Install skills from a folder, git, GitHub or a site (skills-lock.json)",
  usage,
  options: {
    skill: { type: "string", multiple: true },
    list: { type: "boolean" },
    json: { type: "boolean" },
  },
  maxPositionals: 1,
  async run({ values, positionals }, io) {
    const spec = positionals[0];
    if (spec === undefined)
      return usageError(io, "add", "SOURCE is required (a folder, owner/repo, a git URL or a site URL).");
    let opened: Awaited<ReturnType<typeof openSource>>;
    let source: ReturnType<typeof parseInstallSource>;
    try {
      source = parseInstallSource(spec, io.cwd, isDirectory);
      opened = await openSource(source, cliFetchOptions(io));
    } catch (error) {
      io.stderr.write(`skillrt add: ${failureMessage(error)}\n`);
      return 1;
    }
    if (opened.warning !== undefined) io.stderr.write(`skillrt add: warning: ${opened.warning}\n`);
    const wanted = values.skill ?? [];
    const missing = wanted.filter((name) => !opened.skills.some((s) => s.name === name));
    if (missing.length > 0) {
      io.stderr.write(
        `skillrt add: ${missing.map((n) => `'${n}'`).join(", ")} not in ${spec} (it has: ${opened.skills.map((s) => s.name).join(", ") || "no skills"}).\n`,
      );
      return 1;
    }
    const selected =
      wanted.length === 0 ? opened.skills : opened.skills.filter((s) => wanted.includes(s.name));
    if (values.list === true) {
      if (values.json === true)
        await writeJson(io.stdout, {
          skills: selected.map(({ name, description, skillPath }) => ({ name, description, skillPath })),
        });
      else await writeOutput(io.stdout, selected.map((s) => `${s.name}  ${s.description}\n`).join(""));
      return 0;
    }
    if (selected.length === 0) {
      io.stderr.write(`skillrt add: ${spec} has no skills; nothing installed.\n`);
      return 1;
    }
    const entries = new Map<string, SkillsLockEntry>();
    const installed: { name: string; dir: string; entry: SkillsLockEntry }[] = [];
    for (const skill of selected) {
      try {
        const hash = await installSkillFolder(skill, io.cwd);
        const entry = lockEntryFor(source, skill, hash, io.cwd);
        entries.set(skill.name, entry);
        installed.push({ name: skill.name, dir: path.join(io.cwd, ".agents", "skills", skill.name), entry });
      } catch (error) {
        io.stderr.write(`skillrt add: ${failureMessage(error)}\n`);
        return 1;
      }
    }
    await updateSkillsLock(io.cwd, entries);
    if (values.json === true) {
      await writeJson(io.stdout, { installed });
      return 0;
    }
    await writeOutput(
      io.stdout,
      `${installed.map((s) => `+ ${s.name}  .agents/skills/${s.name}\n`).join("")}Added ${installed.length} skill${installed.length === 1 ? "" : "s"} to skills-lock.json. Their scripts run after \`skillrt trust .agents/skills\`.\n`,
    );
    return 0;
  },
});
