#!/usr/bin/env node
// What `skillrt run NAME -- true` costs a user, in the bubblewrap sandbox, against its floor measured in
// the same run: starting Node (`node -e 0`) plus a bare `bwrap … true` (a minimal sandbox: read-only
// /usr, new namespaces, nothing else). Runs alternate (floor, skillrt, floor, …) after one warm-up run
// (which writes the sandbox probe cache, as any earlier call would). Prints one JSON line: medians of
// wall ms, the median of pairwise ratios (target ≤ 2), and the load average.
// Two more commands, in the same alternation, say where the time goes: `skillrt --version` (Node, the
// bin and the bundle's entry: the CLI's own start-up) and `skillrt run --executor local` (everything but
// the sandbox: module loading, the catalog, config, workspace, a plain child process, clean-up).
// BENCH_BEFORE=DIR (a checkout of an earlier round, built) runs the same skillrt commands with
// DIR/bin/skillrt.js in the same alternation and prints their medians beside these, as `before`.
// Creates its own skill root, cache and working directory in a temporary folder.
// Usage: npm run build && npx node bench/run-cli.mjs [pairs=15]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "..", "bin/skillrt.js");
const node = process.execPath;
const pairs = Number(process.argv[2] ?? 15);
const beforeBin = process.env.BENCH_BEFORE
  ? path.join(path.resolve(process.env.BENCH_BEFORE), "bin/skillrt.js")
  : undefined;
const bwrap = ["/usr/bin/bwrap", "/bin/bwrap"].find((p) => fs.existsSync(p));
if (bwrap === undefined) {
  process.stdout.write(`${JSON.stringify({ skipped: "bubblewrap is not installed" })}\n`);
  process.exit(0);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-run-bench-"));
const root = path.join(tmp, "skills");
fs.mkdirSync(path.join(root, "demo"), { recursive: true });
fs.writeFileSync(
  path.join(root, "demo", "SKILL.md"),
  "---\nname: demo\ndescription: Runs true.\n---\nBody.\n",
);
const env = { ...process.env, HOME: tmp, SKILLRT_CACHE_DIR: path.join(tmp, "cache"), NO_COLOR: "1" };
const bareArgs = [
  "--ro-bind",
  "/usr",
  "/usr",
  ...["bin", "lib", "lib64", "sbin"].flatMap((d) => ["--symlink", `usr/${d}`, `/${d}`]),
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "--unshare-all",
  "--die-with-parent",
  "true",
];
const runArgsOf = (b) => [b, "run", "demo", "--root", root, "--executor", "sandbox", "--", "true"];
const localArgsOf = (b) => [b, "run", "demo", "--root", root, "--executor", "local", "--", "true"];
const runArgs = runArgsOf(bin);
const localArgs = localArgsOf(bin);

function timed(command, args) {
  const start = performance.now();
  const child = spawnSync(command, args, { cwd: tmp, env, encoding: "utf8" });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${command} ${args.join(" ")}: exit ${child.status}: ${child.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const r = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

try {
  timed(node, runArgs); // warm-up: probes the sandbox once and caches the result
  timed(node, localArgs);
  if (beforeBin !== undefined) {
    timed(node, runArgsOf(beforeBin));
    timed(node, localArgsOf(beforeBin));
  }
  const t = { node: [], bwrap: [], run: [], version: [], local: [] };
  const before = { run: [], version: [], local: [] };
  const ratios = [];
  for (let i = 0; i < pairs; i++) {
    const n = timed(node, ["-e", "0"]);
    const b = timed(bwrap, bareArgs);
    const s = timed(node, runArgs);
    t.node.push(n);
    t.bwrap.push(b);
    t.run.push(s);
    ratios.push(s / (n + b));
    t.version.push(timed(node, [bin, "--version"]));
    t.local.push(timed(node, localArgs));
    if (beforeBin !== undefined) {
      before.run.push(timed(node, runArgsOf(beforeBin)));
      before.version.push(timed(node, [beforeBin, "--version"]));
      before.local.push(timed(node, localArgsOf(beforeBin)));
    }
  }
  process.stdout.write(
    `${JSON.stringify({
      node_ms: r(median(t.node), 1),
      bare_bwrap_ms: r(median(t.bwrap), 1),
      floor_ms: r(median(t.node) + median(t.bwrap), 1),
      skillrt_run_ms: r(median(t.run), 1),
      ratio: r(median(ratios)),
      target: 2,
      phases: {
        cli_start_ms: r(median(t.version), 1),
        run_local_ms: r(median(t.local), 1),
        sandbox_extra_ms: r(median(t.run) - median(t.local), 1),
      },
      ...(beforeBin === undefined
        ? {}
        : {
            before: {
              skillrt_run_ms: r(median(before.run), 1),
              cli_start_ms: r(median(before.version), 1),
              run_local_ms: r(median(before.local), 1),
            },
          }),
      pairs,
      load: r(os.loadavg()[0]),
    })}\n`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
