/**
 * `skillrt lock` end to end: the built CLI against a loopback HTTP server serving a `.tar.gz` and a real
 * git repository on a moving branch. Once locked, a changed upstream is not what loads — not even with
 * `--refresh` — until `skillrt lock --update`.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeTarGz, skillMd } from "../../src/catalog/remote/__fixtures__/make-archives.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

let dir: string;
let cwd: string;
let repo: string;
let env: Record<string, string>;
let server: Server | undefined;
let archiveUrl: string;
const files = new Map<string, Buffer>();

const git = (...args: string[]) =>
  execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    encoding: "utf8",
  });

async function publish(version: string): Promise<void> {
  files.set(
    "/pack.tgz",
    makeTarGz([{ name: "pack/tarred/SKILL.md", data: skillMd("tarred", `Tarball ${version}`) }]),
  );
  await writeFile(path.join(repo, "skills", "gitted", "SKILL.md"), skillMd("gitted", `Git ${version}`));
  git("add", ".");
  git("commit", "-qm", version);
}

beforeAll(() => assertBuilt());
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-lock-e2e-"));
  cwd = path.join(dir, "work");
  repo = path.join(dir, "repo");
  await mkdir(cwd);
  await mkdir(path.join(repo, "skills", "gitted"), { recursive: true });
  git("init", "-q", "-b", "main");
  env = { SKILLRT_CACHE_DIR: path.join(dir, "cache"), HOME: path.join(dir, "home") };
  server = createServer((req, res) => {
    const body = files.get(req.url ?? "");
    if (body === undefined) res.writeHead(404, "Not Found").end();
    else res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  archiveUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pack.tgz`;
  await writeFile(
    path.join(cwd, "skillrt.config.json"),
    JSON.stringify({ roots: [archiveUrl, `git+file://${repo}#main`] }),
  );
});
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s !== undefined) await new Promise((resolve) => s.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function descriptions(args: string[] = []): Promise<Record<string, string>> {
  const run = await runCli(["list", "--json", ...args], { cwd, env });
  const listed = JSON.parse(run.stdout) as { skills: Array<{ name: string; description: string }> };
  return Object.fromEntries(listed.skills.map((s) => [s.name, s.description]));
}

describe("skillrt lock", () => {
  it("pins both roots; a changed upstream is not loaded, even with --refresh, until lock --update", async () => {
    await publish("v1");
    const locked = await runCli(["lock"], { cwd, env });
    expect(locked.stderr).toBe("");
    expect(locked.code).toBe(0);
    expect(locked.stdout).toContain("Locked 2 roots");
    const lock = JSON.parse(await readFile(path.join(cwd, "skillrt.lock.json"), "utf8"));
    const v1Commit = git("rev-parse", "HEAD").trim();
    expect(lock.roots[`git+file://${repo}#main`]).toEqual({ digest: `git:${v1Commit}` });
    expect(lock.roots[archiveUrl].digest).toMatch(/^sha256:[0-9a-f]{64}$/);

    await publish("v2");
    expect(await descriptions(["--refresh"])).toEqual({ tarred: "Tarball v1", gitted: "Git v1" });

    expect((await runCli(["lock", "--update"], { cwd, env })).code).toBe(0);
    expect(await descriptions()).toEqual({ tarred: "Tarball v2", gitted: "Git v2" });
  });

  it("a fresh cache with a stale lock refuses the changed archive, naming both digests and lock --update", async () => {
    await publish("v1");
    expect((await runCli(["lock"], { cwd, env })).code).toBe(0);
    await publish("v2");
    env = { ...env, SKILLRT_CACHE_DIR: path.join(dir, "cache2") };
    const run = await runCli(["list", "--json"], { cwd, env });
    const listed = JSON.parse(run.stdout) as {
      skills: Array<{ name: string; description: string }>;
      diagnostics: Array<{ message: string }>;
    };
    // The git root is pinned to its commit, so the fresh cache checks out v1 again.
    expect(listed.skills.map((s) => [s.name, s.description])).toEqual([["gitted", "Git v1"]]);
    const refused = listed.diagnostics.map((d) => d.message).join("\n");
    expect(refused).toMatch(/sha256 mismatch — the root pins [0-9a-f]{64} but the content is [0-9a-f]{64}/);
    expect(refused).toContain("skillrt lock --update");
  });
});
