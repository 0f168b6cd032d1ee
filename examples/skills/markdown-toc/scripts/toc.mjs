#!/usr/bin/env node
// Table of contents from Markdown headings. Usage: toc.mjs FILE [--max-depth N] [--check] [--include-title]
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const file = args[0];
if (!file || file.startsWith("--")) {
  console.error("usage: toc.mjs FILE [--max-depth N] [--check] [--include-title]");
  process.exit(2);
}
const maxDepth = args.includes("--max-depth") ? Number(args[args.indexOf("--max-depth") + 1]) : 6;
let text;
try {
  text = readFileSync(file, "utf8");
} catch (error) {
  console.error(`cannot read ${file}: ${error.message}`);
  process.exit(2);
}

const headings = [];
let fence = null;
for (const [index, line] of text.split(/\r?\n/).entries()) {
  const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
  if (f) {
    if (fence === null) fence = f[1][0];
    else if (f[1][0] === fence) fence = null;
    continue;
  }
  if (fence !== null) continue;
  const h = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
  if (h) headings.push({ level: h[1].length, text: h[2], line: index + 1 });
}

const plain = (s) =>
  s
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*_~]/g, "")
    .trim();
const seen = new Map();
function anchor(s) {
  const base = plain(s)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");
  const n = seen.get(base) ?? 0;
  seen.set(base, n + 1);
  return n === 0 ? base : `${base}-${n}`;
}

const includeTitle = args.includes("--include-title");
const titleIndex = !includeTitle && headings[0]?.level === 1 ? 0 : -1;
if (args.includes("--check")) {
  const problems = [];
  const texts = new Map();
  headings.forEach((h, i) => {
    const prev = headings[i - 1];
    if (prev && h.level > prev.level + 1)
      problems.push(`line ${h.line}: level ${h.level} follows level ${prev.level}`);
    const key = plain(h.text).toLowerCase();
    if (texts.has(key))
      problems.push(`line ${h.line}: duplicate heading "${plain(h.text)}" (first at line ${texts.get(key)})`);
    else texts.set(key, h.line);
  });
  console.log(problems.length === 0 ? "ok: heading structure is sound" : problems.join("\n"));
  process.exit(problems.length === 0 ? 0 : 1);
}
const listed = headings.filter((_h, i) => i !== titleIndex);
const minLevel = Math.min(...listed.map((h) => h.level));
for (const h of headings) {
  const a = anchor(h.text);
  if (h === headings[titleIndex] || h.level > maxDepth) continue;
  console.log(`${"  ".repeat(h.level - minLevel)}- [${plain(h.text)}](#${a})`);
}
