#!/usr/bin/env node
// Tiny JSON path query. Usage: query.mjs FILE|- PATH [--lines|--count|--keys]
import { readFileSync } from "node:fs";

const [file, path = "", ...flags] = process.argv.slice(2);
if (!file) {
  console.error("usage: query.mjs FILE|- PATH [--lines|--count|--keys]");
  process.exit(2);
}
let data;
try {
  data = JSON.parse(readFileSync(file === "-" ? 0 : file, "utf8"));
} catch (error) {
  console.error(`cannot read JSON from ${file}: ${error.message}`);
  process.exit(2);
}

function tokenize(p) {
  const tokens = [];
  const re =
    /\.?([A-Za-z_$][\w$-]*)|\.\*|\[(-?\d+)\]|\[\*\]|\["((?:[^"\\]|\\.)*)"\]|\[\?([^=\]]+)=([^\]]*)\]/gy;
  while (re.lastIndex < p.length) {
    const m = re.exec(p);
    if (m === null) break;
    if (m[1] !== undefined) tokens.push({ key: m[1] });
    else if (m[2] !== undefined) tokens.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) tokens.push({ key: JSON.parse(`"${m[3]}"`) });
    else if (m[4] !== undefined) tokens.push({ filter: m[4].trim(), value: m[5].trim() });
    else tokens.push({ all: true });
  }
  if (re.lastIndex < p.length && p.length > 0) {
    console.error(`cannot parse path at: ${p.slice(re.lastIndex)}`);
    process.exit(2);
  }
  return tokens;
}

function literal(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text.replace(/^'(.*)'$/, "$1");
  }
}

let current = [data];
for (const t of tokenize(path)) {
  const next = [];
  for (const v of current) {
    if (t.key !== undefined && v && typeof v === "object" && t.key in v) next.push(v[t.key]);
    else if (t.index !== undefined && Array.isArray(v)) {
      const i = t.index < 0 ? v.length + t.index : t.index;
      if (i >= 0 && i < v.length) next.push(v[i]);
    } else if (t.all && v && typeof v === "object") next.push(...Object.values(v));
    else if (t.filter !== undefined && Array.isArray(v)) {
      const want = literal(t.value);
      next.push(...v.filter((e) => e && typeof e === "object" && e[t.filter] === want));
    }
  }
  current = next;
}

const wildcard = /\*|\[\?/.test(path);
if (current.length === 0) {
  console.log("[]");
  process.exit(1);
}
if (flags.includes("--count")) console.log(current.length);
else if (flags.includes("--keys"))
  console.log(
    JSON.stringify([...new Set(current.flatMap((v) => (v && typeof v === "object" ? Object.keys(v) : [])))]),
  );
else if (flags.includes("--lines"))
  for (const v of current) console.log(typeof v === "string" ? v : JSON.stringify(v));
else console.log(JSON.stringify(wildcard ? current : current[0], null, 2));
