#!/usr/bin/env node
// Changelog from git history. Usage: changelog.mjs REPO [--from REF] [--to REF] [--since DATE] [--json]
import { execFileSync } from "node:child_process";

const args = process.argv.slice(2);
const repo = args[0];
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
if (!repo || repo.startsWith("--")) {
  console.error("usage: changelog.mjs REPO [--from REF] [--to REF] [--since DATE] [--json]");
  process.exit(2);
}
const git = (...a) =>
  execFileSync("git", ["-C", repo, ...a], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
try {
  git("rev-parse", "--git-dir");
} catch {
  console.error(`${repo} is not a git repository`);
  process.exit(2);
}
let from = opt("--from");
let note = "";
if (!from && !opt("--since")) {
  try {
    from = git("describe", "--tags", "--abbrev=0").trim();
  } catch {
    note = "No tags found: the whole history is listed.";
  }
}
const to = opt("--to") ?? "HEAD";
const range = from ? `${from}..${to}` : to;
const logArgs = ["log", range, "--no-merges", "--format=%H%x1f%an%x1f%ad%x1f%s%x1f%b%x1e", "--date=short"];
if (opt("--since")) logArgs.push(`--since=${opt("--since")}`);
const raw = git(...logArgs);
const commits = raw
  .split("\x1e")
  .map((r) => r.trim())
  .filter(Boolean)
  .map((r) => {
    const [hash, author, date, subject, body = ""] = r.split("\x1f");
    const m = /^(\w+)(?:\(([^)]*)\))?(!)?:\s*(.*)$/.exec(subject);
    return {
      hash: hash.slice(0, 7),
      author,
      date,
      type: m ? m[1].toLowerCase() : "other",
      scope: m?.[2],
      breaking: Boolean(m?.[3]) || /BREAKING CHANGE:/.test(body),
      subject: m ? m[4] : subject,
    };
  });
const titles = {
  feat: "Features",
  fix: "Fixes",
  perf: "Performance",
  docs: "Documentation",
  refactor: "Refactoring",
  test: "Tests",
};
const group = (c) => titles[c.type] ?? (["build", "ci", "chore"].includes(c.type) ? "Maintenance" : "Other");

if (args.includes("--json")) {
  console.log(JSON.stringify({ range, note, commits }, null, 2));
  process.exit(0);
}
console.log(`## Changes ${from ? `since ${from}` : ""}`.trim());
if (note) console.log(`\n_${note}_`);
if (commits.length === 0) console.log("\nNo commits in this range.");
const breaking = commits.filter((c) => c.breaking);
if (breaking.length > 0) {
  console.log("\n### Breaking changes");
  for (const c of breaking) console.log(`- ${c.subject} (${c.hash})`);
}
for (const title of [...Object.values(titles), "Maintenance", "Other"]) {
  const items = commits.filter((c) => group(c) === title);
  if (items.length === 0) continue;
  console.log(`\n### ${title}`);
  for (const c of items) console.log(`- ${c.scope ? `**${c.scope}:** ` : ""}${c.subject} (${c.hash})`);
}
