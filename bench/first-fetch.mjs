#!/usr/bin/env node
// The first fetch of a remote root, where `skillrt add`, `install` and a first `list --root URL` spend
// their time, against the floor of a plain download and unpack of the same archive, measured in the same
// run (runs alternate A B A B …):
//   floor: `curl -sf URL | tar xz -C FRESH_DIR`
//   skillrt: `skillrt list --root URL --json` with a fresh cache directory (download, every archive check,
//            extraction into the cache, the scan and the listing)
// The archive is a .tar.gz of a bench/gen-skills.mjs tree (scripts, references and assets included), served
// from a loopback HTTP server in this process. Prints one JSON line per N with the medians, the ratio of
// medians and the median of pairwise ratios. Usage: npm run build && npx node bench/first-fetch.mjs [N ...]
// (default 100 1000; PAIRS=5).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSkills } from "./gen-skills.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, "..", "bin", "skillrt.js");
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const pairs = Number(process.env.PAIRS ?? 5);

/** Runs `command` (async, so this process's server can answer it); resolves with wall ms. */
function timed(command, args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr}`));
      else resolve(performance.now() - started);
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-first-fetch-"));
try {
  for (const n of sizes.length > 0 ? sizes : [100, 1000]) {
    const tree = path.join(work, `tree-${n}`);
    generateSkills(tree, n);
    const archive = path.join(work, `skills-${n}.tar.gz`);
    execFileSync("tar", ["czf", archive, "-C", tree, "."]);
    const bytes = fs.readFileSync(archive);
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/gzip", "content-length": bytes.length }).end(bytes);
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${server.address().port}/skills-${n}.tar.gz`;
    const floor = [];
    const ours = [];
    let run = 0;
    for (let i = 0; i < pairs; i++) {
      const out = path.join(work, `unpack-${run++}`);
      fs.mkdirSync(out);
      floor.push(await timed("sh", ["-c", `curl -sf '${url}' | tar xz -C '${out}'`], process.env));
      const cache = path.join(work, `cache-${run++}`);
      ours.push(
        await timed(process.execPath, [bin, "list", "--root", url, "--json"], {
          PATH: process.env.PATH,
          HOME: work,
          SKILLRT_CACHE_DIR: cache,
        }),
      );
      fs.rmSync(out, { recursive: true, force: true });
      fs.rmSync(cache, { recursive: true, force: true });
    }
    server.close();
    const ratios = ours.map((ms, i) => ms / floor[i]);
    console.log(
      JSON.stringify({
        bench: "first-fetch",
        skills: n,
        archiveBytes: bytes.length,
        pairs,
        floorCurlTarMs: Math.round(median(floor)),
        skillrtFirstListMs: Math.round(median(ours)),
        ratioOfMedians: Number((median(ours) / median(floor)).toFixed(2)),
        medianPairRatio: Number(median(ratios).toFixed(2)),
        target: "<= 2x at 1,000 skills on a quiet machine",
      }),
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
