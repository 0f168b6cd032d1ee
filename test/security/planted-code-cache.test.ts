/**
 * Planted code caches and trust records: the victim (this uid) runs the real CLI (dist/, bin/skillrt.js)
 * while its cache or state path crosses what a second uid (65534) controls: a symlink it made, or a folder
 * anyone can write. The code cache payload is what an attacker would plant: Node's compile cache entries
 * made from its own script, of the same length and at the same path as the CLI's entry (a copy of the
 * package where the attacker's script stood in for dist/bundle/main.js when the entries were made), and a
 * `trust.json` trusting a project's skills at their real digest. The planted code must never run and the
 * planted record never trust anything.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type LoopbackProvider,
  loopbackEnv,
  startLoopbackProvider,
} from "../e2e/support/loopback-provider.js";
import { assertBuilt, runCli } from "../e2e/support/run-cli.js";
import { asNobody, secondUid, tempDir } from "./support.js";

const repo = path.resolve(import.meta.dirname, "..", "..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string })
  .version;

/** Every file below `dir` with its bytes (relative path → base64), to tell whether anything changed. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = fs.readFileSync(file).toString("base64");
  }
  return out;
}

describe.runIf(secondUid.ok)("planted code caches and trust records (second uid 65534)", () => {
  let base: string;
  let marker: string;
  /** The package copy the victim runs (dist/ as built, node_modules linked). */
  let pkg: string;
  /** The attacker's compile cache (its v8/ folder) for the copy's paths, made from its own main.js. */
  let planted: string;

  beforeAll(async () => {
    assertBuilt();
    base = await tempDir("skillrt-sec-v8-");
    fs.chmodSync(base, 0o755); // the second uid reaches the folders below
    marker = path.join(base, "PWNED");
    pkg = path.join(base, "pkg");
    fs.mkdirSync(pkg);
    for (const part of ["bin", "dist", "package.json"])
      fs.cpSync(path.join(repo, part), path.join(pkg, part), { recursive: true });
    fs.symlinkSync(path.join(repo, "node_modules"), path.join(pkg, "node_modules"));
    const entry = path.join(pkg, "dist", "bundle", "main.js");
    const source = fs.readFileSync(entry);
    // The attacker's script: writes the marker; padded with a comment to main.js's exact length.
    const payload = `import { writeFileSync } from "node:fs";export async function main() { writeFileSync(${JSON.stringify(marker)}, "ran"); return 0; }//`;
    expect(payload.length).toBeLessThan(source.length);
    fs.writeFileSync(entry, payload.padEnd(source.length, "x"));
    const attacker = path.join(base, "attacker-cache");
    const made = spawnSync(process.execPath, [path.join(pkg, "bin", "skillrt.js"), "--version"], {
      cwd: base,
      env: { PATH: process.env["PATH"] ?? "", HOME: base, SKILLRT_CACHE_DIR: attacker },
      encoding: "utf8",
    });
    expect(made.status, made.stderr).toBe(0);
    expect(fs.existsSync(marker)).toBe(true); // the attacker's script ran there, and its entries were made
    fs.rmSync(marker);
    fs.writeFileSync(entry, source);
    planted = path.join(attacker, "v8");
    expect(Object.keys(tree(planted)).length).toBeGreaterThan(0);
  }, 120_000);

  afterAll(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** Plants the attacker's entries under `cacheDir` (owned by this uid, as skillrt's files are). */
  function plant(cacheDir: string): void {
    fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    fs.cpSync(planted, path.join(cacheDir, "v8"), { recursive: true });
  }

  /** The copy's `skillrt --version` with `env`: prints the version, never runs the planted code; its stderr. */
  function version(env: Record<string, string>): string {
    const run = spawnSync(process.execPath, [path.join(pkg, "bin", "skillrt.js"), "--version"], {
      cwd: base,
      env: { PATH: process.env["PATH"] ?? "", HOME: base, ...env },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(fs.existsSync(marker), "the planted code ran").toBe(false);
    expect(run.stdout.trim()).toBe(VERSION);
    expect(run.status).toBe(0);
    return run.stderr;
  }

  it("the user's own private cache: entries made from another script of the same length are not used", () => {
    const dir = path.join(base, "own");
    plant(dir);
    const before = tree(path.join(dir, "v8"));
    expect(version({ SKILLRT_CACHE_DIR: dir })).toBe("");
    // The entry for main.js is rewritten from the real source (what a run that compiled it leaves).
    const after = tree(path.join(dir, "v8"));
    expect(Object.keys(before).filter((file) => after[file] !== before[file]).length).toBeGreaterThan(0);
    expect(version({ SKILLRT_CACHE_DIR: dir })).toBe("");
  });

  it("a code cache folder reached through a symlink another uid made is refused, with one warning", () => {
    // Where the link leads is the user's own (files skillrt itself wrote there, say): only the link is theirs.
    const cacheDir = path.join(base, "victim-cache");
    fs.mkdirSync(cacheDir, { mode: 0o700 });
    const theirs = path.join(base, "extracted");
    plant(theirs);
    const before = tree(theirs);
    const sticky = path.join(base, "sticky");
    fs.mkdirSync(sticky);
    fs.chmodSync(sticky, 0o1777);
    asNobody(`ln -s '${path.join(theirs, "v8")}' '${path.join(sticky, "v8")}'`);
    fs.symlinkSync(path.join(sticky, "v8"), path.join(cacheDir, "v8"));
    const stderr = version({ SKILLRT_CACHE_DIR: cacheDir });
    const lines = stderr.split("\n").filter((l) => l.includes("cache directory"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${path.join(sticky, "v8")} on its path is a symlink owned by uid 65534`);
    expect(tree(theirs)).toEqual(before); // neither read nor replaced
    // The whole cache directory through the attacker's link: refused as well (the commands that use it warn).
    asNobody(`ln -s '${theirs}' '${path.join(sticky, "cache")}'`);
    version({ SKILLRT_CACHE_DIR: path.join(sticky, "cache") });
    expect(tree(theirs)).toEqual(before);
  });

  it("a cache below a folder anyone can write (not sticky) is refused, though every file in it is the user's", () => {
    const shared = path.join(base, "shared");
    const cacheDir = path.join(shared, "cache");
    plant(cacheDir);
    const before = tree(cacheDir);
    fs.chmodSync(shared, 0o777);
    version({ SKILLRT_CACHE_DIR: cacheDir });
    expect(tree(cacheDir)).toEqual(before);
  });

  describe("a planted trust record", () => {
    let project: string;
    let server: LoopbackProvider | undefined;
    let record: Buffer;

    beforeAll(async () => {
      project = path.join(base, "project");
      const skill = path.join(project, ".agents", "skills", "greet");
      fs.mkdirSync(path.join(skill, "scripts"), { recursive: true });
      fs.writeFileSync(
        path.join(skill, "SKILL.md"),
        "---\nname: greet\ndescription: Greets.\n---\nRun `sh scripts/hello.sh` to greet.\n",
      );
      fs.writeFileSync(path.join(skill, "scripts", "hello.sh"), "echo HELLO-FROM-SCRIPT\n");
      // The record `skillrt trust` writes for this project (its digest is public: anyone can compute it).
      const scratch = path.join(base, "scratch-state");
      const trusted = await runCli(["trust"], {
        cwd: project,
        env: { HOME: base, SKILLRT_STATE_DIR: scratch },
      });
      expect(trusted.code, trusted.stderr).toBe(0);
      record = fs.readFileSync(path.join(scratch, "trust.json"));
    }, 60_000);

    afterAll(async () => {
      await server?.close();
    });

    /** One `ask` that runs greet's script with `env`; what the script's tool result said, and stderr. */
    async function askGreet(env: Record<string, string>): Promise<{ run: string; stderr: string }> {
      server = await startLoopbackProvider("openai", [
        { toolCalls: [{ name: "skill_run", input: { name: "greet", command: "sh scripts/hello.sh" } }] },
        { text: "Done." },
      ]);
      const run = await runCli(["ask", "--executor", "local", "greet me"], {
        cwd: project,
        env: { ...loopbackEnv(server), SKILLRT_CACHE: "0", ...env },
        timeoutMs: 60_000,
      });
      const body = server.requests.at(-1)?.body;
      await server.close();
      server = undefined;
      expect(run.code, run.stderr).toBe(0);
      const tools = (body?.messages ?? []).filter((m: { role: string }) => m.role === "tool");
      return { run: String(tools[0]?.content ?? ""), stderr: run.stderr };
    }

    it("is trusted where the user keeps it (the control), but not through another uid's symlink or a folder anyone can write", async () => {
      const home = path.join(base, "home-own");
      fs.mkdirSync(path.join(home, ".local", "state", "skillrt"), { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(home, ".local", "state", "skillrt", "trust.json"), record, { mode: 0o600 });
      expect((await askGreet({ HOME: home })).run).toContain("HELLO-FROM-SCRIPT");

      // ~/.local is another uid's link to a folder holding that record (the user's own files, as above).
      const linked = path.join(base, "home-linked");
      fs.mkdirSync(linked, { mode: 0o700 });
      const sticky = path.join(base, "sticky-state");
      fs.mkdirSync(sticky);
      fs.chmodSync(sticky, 0o1777);
      asNobody(`ln -s '${path.join(home, ".local")}' '${path.join(sticky, "local")}'`);
      fs.symlinkSync(path.join(sticky, "local"), path.join(linked, ".local"));
      const viaLink = await askGreet({ HOME: linked });
      expect(viaLink.run).not.toContain("HELLO-FROM-SCRIPT");
      expect(viaLink.run).toContain("skillrt trust");
      expect(viaLink.stderr).toContain("the trust file's directory is not used");
      expect(viaLink.stderr).toContain("symlink owned by uid 65534");
      const listed = await runCli(["trust", "--list", "--json"], { cwd: project, env: { HOME: linked } });
      expect(listed.code).toBe(1);
      expect(listed.stdout).not.toContain("greet");
      expect(listed.stderr).toContain("symlink owned by uid 65534");

      // The same record below a folder anyone can write.
      fs.chmodSync(path.join(home, ".local"), 0o777);
      const writable = await askGreet({ HOME: home });
      expect(writable.run).not.toContain("HELLO-FROM-SCRIPT");
      expect(writable.stderr).toMatch(/other users can write to .*\.local on its path \(mode 0777\)/);
    }, 180_000);
  });
});
