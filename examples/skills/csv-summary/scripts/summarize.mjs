#!/usr/bin/env node
// Column statistics of a CSV/TSV file (`-` reads stdin). Usage: summarize.mjs FILE|- [--json] [--delimiter ,|tab|;]
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const file = args.find(
  (a) => (a === "-" || !a.startsWith("-")) && args[args.indexOf(a) - 1] !== "--delimiter",
);
const json = args.includes("--json");
const delimiterArg = args.includes("--delimiter") ? args[args.indexOf("--delimiter") + 1] : undefined;
if (!file) {
  console.error("usage: summarize.mjs FILE [--json] [--delimiter ,|tab|;]");
  process.exit(2);
}
let text;
try {
  text = readFileSync(file === "-" ? 0 : file, "utf8").replace(/^\uFEFF/, "");
} catch (error) {
  console.error(`cannot read ${file}: ${error.message}`);
  process.exit(2);
}
const delimiter = delimiterArg === "tab" ? "\t" : (delimiterArg ?? (file.endsWith(".tsv") ? "\t" : ","));

function parse(input) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && input[i + 1] === "\n") i++;
      row.push(field);
      if (row.some((f) => f !== "")) rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== "")) rows.push(row);
  return rows;
}

const [header, ...rows] = parse(text);
if (!header) {
  console.error(`${file} is empty`);
  process.exit(1);
}
const columns = header.map((name, index) => {
  const values = rows.map((r) => (r[index] ?? "").trim());
  const present = values.filter((v) => v !== "");
  const numbers = present.map(Number);
  const numeric = present.length > 0 && numbers.every((n) => Number.isFinite(n));
  const base = {
    name,
    type: numeric ? "number" : "text",
    count: present.length,
    missing: values.length - present.length,
  };
  if (numeric) {
    const sum = numbers.reduce((a, b) => a + b, 0);
    return {
      ...base,
      min: Math.min(...numbers),
      max: Math.max(...numbers),
      mean: Number((sum / numbers.length).toFixed(4)),
    };
  }
  const freq = new Map();
  for (const v of present) freq.set(v, (freq.get(v) ?? 0) + 1);
  const top = [...freq.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
  return { ...base, distinct: freq.size, top: top.map(([value, count]) => ({ value, count })) };
});

if (json) {
  console.log(JSON.stringify({ rows: rows.length, columns }, null, 2));
} else {
  console.log(`rows: ${rows.length}`);
  const width = Math.max(...columns.map((c) => c.name.length));
  for (const c of columns) {
    const stats =
      c.type === "number"
        ? `min=${c.min} max=${c.max} mean=${c.mean}`
        : `distinct=${c.distinct} top=${c.top.map((t) => `${t.value}(${t.count})`).join(",")}`;
    console.log(
      `${c.name.padEnd(width)}  ${c.type.padEnd(6)}  count=${c.count}  missing=${c.missing}  ${stats}`,
    );
  }
}
