#!/usr/bin/env node
// Deterministic generator for a synthetic Agent Skills tree — the one generator of the repo: the
// benchmarks run it (CLI), tests import generateSkills() (through src/catalog/__fixtures__/generate-skills.ts).
// Started from shared/bench/gen-skills.mjs, so nothing needs a sibling shared/ folder.
//
//   node gen-skills.mjs <N> <outDir> [seed=42]
//
// Creates <outDir>/<prefix>-<i>/SKILL.md for i = 0..N-1, where each SKILL.md has
// YAML frontmatter (name == dir name, description 150-600 chars in plain, double-quoted or folded
// style, sometimes license / metadata / allowed-tools / compatibility) and a Markdown body whose size
// target is drawn from 2-20 KiB (the last section can overshoot the target by under 1 KiB).
// Each skill also gets 0-5 files in scripts/ and 0-5 in references/, and ~5% get
// an assets/ binary of 50-500 KB. Same (N, seed) => byte-identical tree.
// Skill i's content depends only on (seed, i), so the N=100 tree is a prefix of
// the N=1000 tree, etc. With { files: false } (tests) each skill is its SKILL.md with the same
// frontmatter and a one-line body, and nothing else.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// ---------- seeded PRNG (mulberry32) ----------
function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let rnd = mulberry32(42);
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)); // inclusive
const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
const chance = (p) => rnd() < p;

// ---------- vocabulary ----------
const PREFIXES = [
  "pdf-tools",
  "docx-editor",
  "xlsx-analyst",
  "pptx-builder",
  "git-helper",
  "code-review",
  "sql-query",
  "api-tester",
  "log-analyzer",
  "image-resize",
  "csv-cleaner",
  "k8s-deploy",
  "terraform-plan",
  "react-component",
  "python-lint",
  "test-writer",
  "release-notes",
  "changelog",
  "brand-guidelines",
  "slack-gif",
  "web-scraper",
  "data-viz",
  "mcp-builder",
  "canvas-design",
  "security-audit",
  "dependency-update",
  "migration-helper",
  "i18n-sync",
  "markdown-format",
  "json-schema",
  "openapi-gen",
  "docker-build",
  "ci-debug",
  "perf-profile",
  "accessibility-check",
  "seo-audit",
  "email-draft",
  "meeting-notes",
  "invoice-parser",
  "regex-builder",
];
const VERBS = [
  "Extracts",
  "Generates",
  "Analyzes",
  "Converts",
  "Validates",
  "Summarizes",
  "Refactors",
  "Formats",
  "Merges",
  "Splits",
  "Fills",
  "Audits",
  "Creates",
  "Reviews",
  "Migrates",
  "Optimizes",
  "Deploys",
  "Debugs",
  "Documents",
  "Transforms",
];
const OBJECTS = [
  "PDF forms",
  "Word documents",
  "spreadsheets",
  "slide decks",
  "git histories",
  "pull requests",
  "SQL schemas",
  "REST endpoints",
  "server logs",
  "PNG and JPEG images",
  "CSV exports",
  "Kubernetes manifests",
  "Terraform modules",
  "React components",
  "Python packages",
  "unit tests",
  "release notes",
  "brand assets",
  "JSON payloads",
  "OpenAPI specs",
  "Dockerfiles",
  "CI pipelines",
  "CPU profiles",
  "HTML pages",
  "email threads",
  "invoices",
  "regular expressions",
  "translation catalogs",
];
const WORDS = (
  "the a an and or with from into for when while using via per each all any " +
  "file files table tables page pages form forms field fields value values text content " +
  "structure layout format output input request response error errors warning config " +
  "project repository branch commit diff patch review test tests suite coverage build " +
  "deploy release version schema column row cell chart graph metric report summary user " +
  "team workflow step steps script scripts reference template templates asset assets " +
  "extract parse validate convert merge split render generate check verify inspect " +
  "quickly safely reliably incrementally automatically manually carefully"
).split(" ");
const WHEN = [
  "Use when the user asks to",
  "Use this skill when working with",
  "Trigger when the user mentions",
  "Use when you need to",
  "Apply when handling",
];
const LICENSES = [
  "MIT",
  "Apache-2.0",
  "Proprietary. LICENSE.txt has complete terms",
  "BSD-3-Clause",
  "Complete terms in LICENSE.txt",
];
const TOOLS = [
  "Bash(git:*)",
  "Bash(python:*)",
  "Read",
  "Write",
  "Edit",
  "Grep",
  "Glob",
  "WebFetch",
  "Bash(jq:*)",
  "Bash(npm:*)",
];
const LANGS = ["python", "bash", "javascript", "typescript", "json", "yaml", "sql"];

function words(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(pick(WORDS));
  return out.join(" ");
}
function sentence(minW = 6, maxW = 18) {
  const s = words(int(minW, maxW));
  return s[0].toUpperCase() + s.slice(1) + ".";
}
function paragraph() {
  const n = int(2, 6);
  const out = [];
  for (let i = 0; i < n; i++) out.push(sentence());
  return out.join(" ");
}

function description(prefix) {
  const target = int(150, 600);
  let d =
    `${pick(VERBS)} ${pick(OBJECTS)} for ${prefix.replace(/-/g, " ")} tasks. ` +
    `${pick(WHEN)} ${pick(OBJECTS).toLowerCase()} or ${words(3)}.`;
  while (d.length < target) d += " " + sentence(5, 14);
  d = d.slice(0, target).replace(/\s+\S*$/, "");
  while (d.length < 149) d += " " + pick(WORDS); // keep >= 150 chars after the final period
  if (!d.endsWith(".")) d += ".";
  return d;
}

// YAML scalar styles seen in the wild: plain, double-quoted, folded block.
function yamlDescription(d) {
  const style = rnd();
  if (style < 0.6) return `description: ${d}`;
  if (style < 0.85) return `description: "${d.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  // folded block scalar, wrapped at ~80 cols
  const lines = [];
  let cur = "";
  for (const w of d.split(" ")) {
    if ((cur + " " + w).length > 78 && cur) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? cur + " " + w : w;
  }
  if (cur) lines.push(cur);
  return "description: >-\n" + lines.map((l) => "  " + l).join("\n");
}

function codeBlock() {
  const lang = pick(LANGS);
  const lines = [];
  const n = int(3, 15);
  for (let i = 0; i < n; i++) {
    lines.push(
      lang === "python"
        ? `    ${pick(WORDS)}_${i} = process(${pick(WORDS)}, ${int(0, 99)})`
        : lang === "bash"
          ? `${pick(["grep", "sed", "jq", "git", "python3", "npx"])} --${pick(WORDS)} ${pick(WORDS)}.txt`
          : `const ${pick(WORDS)}${i} = await run("${pick(WORDS)}", ${int(0, 99)});`,
    );
  }
  return "```" + lang + "\n" + lines.join("\n") + "\n```";
}

function markdownBody(title, targetBytes, scripts, refs) {
  const parts = [`# ${title}`, "", paragraph(), "", "## Quick start", "", paragraph(), ""];
  if (scripts.length) {
    parts.push("## Scripts", "");
    for (const s of scripts) parts.push(`- \`scripts/${s}\`: ${sentence(5, 10)}`);
    parts.push("");
  }
  if (refs.length) {
    parts.push("## References", "");
    for (const r of refs) parts.push(`- See [${r}](references/${r}) for ${words(4)}.`);
    parts.push("");
  }
  let size = parts.join("\n").length;
  let sec = 1;
  while (size < targetBytes) {
    const chunk = [];
    chunk.push(`## ${sentence(2, 5).slice(0, -1)} (${sec++})`, "");
    const kind = rnd();
    if (kind < 0.4) chunk.push(paragraph(), "", paragraph());
    else if (kind < 0.7) {
      for (let i = 0, n = int(3, 8); i < n; i++) chunk.push(`${i + 1}. ${sentence(4, 14)}`);
    } else if (kind < 0.9) chunk.push(paragraph(), "", codeBlock());
    else {
      chunk.push("| Field | Type | Notes |", "| --- | --- | --- |");
      for (let i = 0, n = int(2, 6); i < n; i++)
        chunk.push(`| ${pick(WORDS)} | ${pick(["string", "number", "bool", "list"])} | ${sentence(3, 8)} |`);
    }
    chunk.push("");
    const s = chunk.join("\n");
    parts.push(s);
    size += s.length + 1;
  }
  return parts.join("\n") + "\n";
}

function textFile(ext, bytes) {
  let s =
    ext === "py"
      ? '#!/usr/bin/env python3\n"""Helper script."""\nimport sys\n\n'
      : ext === "sh"
        ? "#!/usr/bin/env bash\nset -euo pipefail\n\n"
        : ext === "md"
          ? `# ${sentence(2, 5).slice(0, -1)}\n\n`
          : "// helper\n";
  while (s.length < bytes) {
    s +=
      ext === "md"
        ? paragraph() + "\n\n"
        : ext === "py"
          ? `def ${pick(WORDS)}_${int(0, 999)}(x):\n    return x  # ${sentence(3, 8)}\n\n`
          : ext === "sh"
            ? `echo "${sentence(3, 8)}"\n`
            : `export function ${pick(WORDS)}${int(0, 999)}(x) { return x; } // ${sentence(3, 8)}\n`;
  }
  return s;
}

function binary(bytes) {
  const buf = Buffer.allocUnsafe(bytes);
  let i = 0;
  for (; i + 4 <= bytes; i += 4) buf.writeUInt32LE((rnd() * 4294967296) >>> 0, i);
  for (; i < bytes; i++) buf[i] = int(0, 255);
  return buf;
}

/**
 * Writes `n` skills under `outDir` (see the header). `seed` (default 42) picks the tree; `files: false`
 * writes only each SKILL.md, with a one-line body. Returns what was written.
 */
export function generateSkills(outDir, n, { seed = 42, files = true } = {}) {
  fs.mkdirSync(outDir, { recursive: true });
  let totalBytes = 0;
  let nFiles = 0;
  let nAssets = 0;
  const write = (p, data) => {
    fs.writeFileSync(p, data);
    totalBytes += data.length;
    nFiles++;
  };
  for (let i = 0; i < n; i++) {
    // Per-skill stream: skill i is the same whatever n is.
    rnd = mulberry32((seed * 1000003 + i * 7919) >>> 0);
    generateSkill(outDir, i, files, write, () => nAssets++);
  }
  return { files: nFiles, bytes: totalBytes, assets: nAssets };
}

function generateSkill(outDir, i, files, write, countAsset) {
  const prefix = PREFIXES[i % PREFIXES.length];
  const name = `${prefix}-${i}`;
  const dir = path.join(outDir, name);
  fs.mkdirSync(dir, { recursive: true });

  const nScripts = int(0, 5),
    nRefs = int(0, 5);
  const scripts = [],
    refs = [];
  for (let k = 0; k < nScripts; k++) scripts.push(`${pick(WORDS)}_${k}.${pick(["py", "sh", "js"])}`);
  for (let k = 0; k < nRefs; k++)
    refs.push(`${pick(["REFERENCE", "FORMS", "API", "GUIDE", "EXAMPLES"])}_${k}.md`);

  const fm = ["---", `name: ${name}`, yamlDescription(description(prefix))];
  if (chance(0.3)) fm.push(`license: ${pick(LICENSES)}`);
  if (chance(0.1))
    fm.push(`compatibility: Requires ${pick(["python3", "node >= 18", "git", "docker"])} and network access`);
  if (chance(0.25))
    fm.push(
      "metadata:",
      `  author: ${pick(["example-org", "acme", "skills-team"])}`,
      `  version: "${int(0, 3)}.${int(0, 9)}.${int(0, 20)}"`,
    );
  if (chance(0.2)) {
    const t = new Set();
    for (let k = 0, n = int(1, 4); k < n; k++) t.add(pick(TOOLS));
    fm.push(`allowed-tools: ${[...t].join(" ")}`);
  }
  fm.push("---", "");
  const title = name
    .split("-")
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
  if (!files) {
    write(path.join(dir, "SKILL.md"), `${fm.join("\n")}\n# ${title}\n\nBody.\n`);
    return;
  }
  const body = markdownBody(title, int(2048, 20480), scripts, refs);
  write(path.join(dir, "SKILL.md"), fm.join("\n") + "\n" + body);

  if (scripts.length) {
    fs.mkdirSync(path.join(dir, "scripts"));
    for (const s of scripts)
      write(path.join(dir, "scripts", s), textFile(s.split(".").pop(), int(300, 6000)));
  }
  if (refs.length) {
    fs.mkdirSync(path.join(dir, "references"));
    for (const r of refs) write(path.join(dir, "references", r), textFile("md", int(1000, 12000)));
  }
  if (chance(0.05)) {
    fs.mkdirSync(path.join(dir, "assets"));
    write(
      path.join(dir, "assets", pick(["logo.png", "template.pdf", "font.ttf", "sample.xlsx"])),
      binary(int(50 * 1024, 500 * 1024)),
    );
    countAsset();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const n = Number(process.argv[2] ?? 100);
  const out = process.argv[3] ?? `skills-${n}`;
  const seed = Number(process.argv[4] ?? 42);
  if (!Number.isInteger(n) || n < 1) {
    console.error("usage: node gen-skills.mjs <N> <outDir> [seed]");
    process.exit(2);
  }
  const made = generateSkills(out, n, { seed });
  console.error(
    `generated ${n} skills in ${out}: ${made.files} files, ${(made.bytes / 1048576).toFixed(1)} MiB, ${made.assets} with assets`,
  );
}
