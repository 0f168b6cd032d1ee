#!/usr/bin/env node
// Catalog start-up benchmark: a cold `skillrt list --json --root DIR` against the floor (one Node process
// that readdirs the root and reads every */SKILL.md in full), on generated trees of 1,000 and 10,000
// skills. Runs alternate (A B A B …); prints one JSON line per N:
//   { n, skillrt_ms, floor_ms, ratio, cpu_ratio, io_floor_ms, rss_mb, floor_rss_mb, pairs, command, checked, load }
// skillrt_ms / floor_ms are medians of wall time; ratio is the median of the pairwise wall ratios and
// cpu_ratio the same for user+sys CPU time (less sensitive to other load; /usr/bin/time only); rss_mb is
// the median peak RSS of the skillrt process (from /usr/bin/time -f %M); io_floor_ms is a second floor
// that also lists every skill folder and reads 4 KiB heads (the I/O nested-skill discovery needs);
// load is the 1-minute load average.
// Also checks the output: every name equals its directory name, and sampled descriptions equal what the
// `yaml` library reads. Usage: npm run build && npx node bench/scan.mjs [N ...]   (default: 1000 10000)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const out = path.join(here, ".out");
const generator = path.join(here, "gen-skills.mjs");
const node = process.execPath;
const sizes = process.argv.slice(2).map(Number);
const timeBin = fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

fs.mkdirSync(out, { recursive: true });
const floorScript = path.join(out, "floor-full.mjs");
fs.writeFileSync(
  floorScript,
  `import { readdirSync, readFileSync } from 'node:fs';
const root = process.argv[2]; let n = 0, bytes = 0;
for (const d of readdirSync(root)) {
  try { const s = readFileSync(\`\${root}/\${d}/SKILL.md\`, 'utf8'); n++; bytes += s.length; } catch {}
}
process.stdout.write(\`\${n} \${bytes}\\n\`);
`,
);

// SKILLRT_BENCH_DRIVER=1 times bench/scan-driver.mjs (catalog only, compact JSON) even when the CLI is built.
// The I/O a scan with nested-skill discovery cannot avoid: list the root, list every skill folder,
// read a 4 KiB head of every SKILL.md. No parsing, no output. Reported for context (io_floor_ms).
const ioFloorScript = path.join(out, "floor-io.mjs");
fs.writeFileSync(
  ioFloorScript,
  `import { readdirSync, openSync, readSync, closeSync } from 'node:fs';
const root = process.argv[2]; const buf = Buffer.allocUnsafe(4096); let n = 0, bytes = 0;
for (const e of readdirSync(root, { withFileTypes: true })) {
  if (!e.isDirectory()) continue;
  const dir = \`\${root}/\${e.name}\`;
  readdirSync(dir, { withFileTypes: true });
  let fd; try { fd = openSync(\`\${dir}/SKILL.md\`, 'r'); } catch { continue; }
  bytes += buf.toString('utf8', 0, readSync(fd, buf, 0, 4096, 0)).length; closeSync(fd); n++;
}
process.stdout.write(\`\${n} \${bytes}\\n\`);
`,
);

const cliBuilt =
  process.env.SKILLRT_BENCH_DRIVER !== "1" && fs.existsSync(path.join(repo, "dist/cli/commands/list.js"));
const skillrtArgs = (root) =>
  cliBuilt
    ? [path.join(repo, "bin/skillrt.js"), "list", "--json", "--root", root]
    : [path.join(here, "scan-driver.mjs"), root];

function tree(n) {
  const dir = path.join(out, `s${n}`);
  const complete = fs.existsSync(dir) && fs.readdirSync(dir).length === n;
  if (!complete) {
    fs.rmSync(dir, { recursive: true, force: true });
    const gen = spawnSync(node, [generator, String(n), dir], { stdio: ["ignore", "ignore", "inherit"] });
    if (gen.status !== 0) throw new Error(`gen-skills.mjs failed for N=${n}`);
  }
  return dir;
}

/** One timed run: wall ms, peak RSS in MiB (or undefined), stdout. */
function run(args) {
  const argv = timeBin ? [timeBin, ["-f", "%M %U %S", node, ...args]] : [node, args];
  const start = performance.now();
  const child = spawnSync(argv[0], argv[1], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { ...process.env, HOME: out, NO_COLOR: "1" },
  });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${args.join(" ")} exited ${child.status}: ${child.stderr.slice(-500)}`);
  const lines = child.stderr.trim().split("\n");
  const [kb, user, sys] = (lines[lines.length - 1] ?? "").split(" ").map(Number);
  const cpuMs = Number.isFinite(user) && Number.isFinite(sys) ? (user + sys) * 1000 : undefined;
  return { ms, cpuMs, rssMb: Number.isFinite(kb) ? kb / 1024 : undefined, stdout: child.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, d = 1) => (x === undefined ? undefined : Math.round(x * 10 ** d) / 10 ** d);

/** Checks the listed records against the tree; returns how many descriptions (folded, quoted) matched `yaml`. */
function check(stdout, n) {
  const parsed = JSON.parse(stdout);
  const skills = Array.isArray(parsed) ? parsed : parsed.skills;
  if (skills.length !== n) throw new Error(`expected ${n} skills, got ${skills.length}`);
  const compared = { all: 0, folded: 0, quoted: 0 };
  skills.forEach((skill, i) => {
    const dirName = path.basename(path.dirname(skill.location));
    if (skill.name !== dirName) throw new Error(`name ${skill.name} != directory ${dirName}`);
    if (i % Math.max(1, Math.floor(n / 250)) !== 0) return;
    const text = fs.readFileSync(skill.location, "utf8");
    const end = text.indexOf("\n---", 3);
    const frontmatter = text.slice(4, end);
    const expected = parseYaml(frontmatter).description.trim();
    if (skill.description !== expected) {
      throw new Error(`${skill.name}: description differs from yaml:\n${skill.description}\n${expected}`);
    }
    compared.all++;
    if (frontmatter.includes("description: >-")) compared.folded++;
    if (frontmatter.includes('description: "')) compared.quoted++;
  });
  return compared;
}

for (const n of sizes.length > 0 ? sizes : [1000, 10000]) {
  const root = tree(n);
  // Enough pairs that one slow moment of a shared VM does not move the median (override: SCAN_PAIRS).
  const pairs = Number(process.env.SCAN_PAIRS) || (n >= 10000 ? 15 : 21);
  const first = run(skillrtArgs(root)); // warm-up (page cache, JIT cache) and output check
  const checked = check(first.stdout, n);
  run([floorScript, root]);
  const a = [];
  const b = [];
  const ratios = [];
  const rss = [];
  const floorRss = [];
  const cpuRatios = [];
  const io = [];
  for (let i = 0; i < pairs; i++) {
    const s = run(skillrtArgs(root));
    const f = run([floorScript, root]);
    io.push(run([ioFloorScript, root]).ms);
    a.push(s.ms);
    b.push(f.ms);
    ratios.push(s.ms / f.ms);
    if (s.rssMb !== undefined) rss.push(s.rssMb);
    if (f.rssMb !== undefined) floorRss.push(f.rssMb);
    if (s.cpuMs !== undefined && f.cpuMs) cpuRatios.push(s.cpuMs / f.cpuMs);
  }
  const result = {
    n,
    skillrt_ms: round(median(a)),
    floor_ms: round(median(b)),
    ratio: round(median(ratios), 2),
    cpu_ratio: round(cpuRatios.length > 0 ? median(cpuRatios) : undefined, 2),
    io_floor_ms: round(median(io)),
    rss_mb: round(rss.length > 0 ? median(rss) : undefined),
    floor_rss_mb: round(floorRss.length > 0 ? median(floorRss) : undefined),
    pairs,
    command: cliBuilt ? "skillrt list --json" : "bench/scan-driver.mjs",
    checked,
    load: round(os.loadavg()[0], 2),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
