/**
 * Planted code caches and trust records: the victim (this uid) runs the real CLI (dist/, bin/skillrt.js)
 * while its cache or state path crosses what a second uid (65534) controls: a symlink it made, or a folder
 * anyone can write. The payloads are what an attacker would plant: a V8 code cache of its own script of
 * the same length as the bundle's `main.cjs` (V8 checks only the length), in raw form and in the form
 * skillrt writes (with a copy of the real `main.cjs` in front, which only a directory the user alone
 * controls can be trusted to hold), and a `trust.json` trusting a project's skills at their real digest.
 * The planted code must never run and the planted record never trust anything.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nameHash } from "../../src/catalog/name-hash.js";
import {
  type LoopbackProvider,
  loopbackEnv,
  startLoopbackProvider,
} from "../e2e/support/loopback-provider.js";
import { assertBuilt, runCli } from "../e2e/support/run-cli.js";
import { asNobody, secondUid, tempDir } from "./support.js";

const repo = path.resolve(import.meta.dirname, "..", "..");
const MAIN = path.join(repo, "dist", "bundle", "main.cjs");
const VERSION = (JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string })
  .version;

describe.runIf(secondUid.ok)("planted code caches and trust records (second uid 65534)", () => {
  let base: string;
  let marker: string;
  /** The attacker's V8 cache for a script of main.cjs's length, raw and with skillrt's header. */
  let planted: { raw: Buffer; forged: Buffer };
  /** Where `skillrt --version` looks for main.cjs's cache below a cache directory. */
  let cacheRel: string;

  beforeAll(async () => {
    assertBuilt();
    base = await tempDir("skillrt-sec-v8-");
    fs.chmodSync(base, 0o755); // the second uid reaches the folders below
    marker = path.join(base, "PWNED");
    const source = fs.readFileSync(MAIN, "utf8");
    // The attacker's script: writes the marker; padded with a comment to main.cjs's exact length.
    const payload = `"use strict";require("node:fs").writeFileSync(${JSON.stringify(marker)},"ran");exports.main=async()=>0;//`;
    expect(payload.length).toBeLessThan(source.length);
    const evil = payload.padEnd(source.length, "x");
    fs.writeFileSync(path.join(base, "evil.cjs"), evil);
    // Made by a child node as the CLI runs (same V8 and flags), which also says V8 alone would take it.
    const child = spawnSync(
      process.execPath,
      [
        "-e",
        `const vm = require("node:vm"), Module = require("node:module"), fs = require("node:fs");
const [evilFile, mainFile, out] = process.argv.slice(1);
const data = new vm.Script(Module.wrap(fs.readFileSync(evilFile, "utf8"))).createCachedData();
fs.writeFileSync(out, data);
const check = new vm.Script(Module.wrap(fs.readFileSync(mainFile, "utf8")), { cachedData: data });
process.stdout.write(check.cachedDataRejected ? "rejected" : "accepted");`,
        path.join(base, "evil.cjs"),
        MAIN,
        path.join(base, "evil.v8"),
      ],
      { encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("accepted"); // V8's own check is not enough
    const raw = fs.readFileSync(path.join(base, "evil.v8"));
    const main = fs.readFileSync(MAIN);
    planted = {
      raw,
      forged: Buffer.concat([Buffer.from(`skillrt-v8 copy ${main.length}\n`), main, raw]),
    };
    cacheRel = path.join(
      "v8",
      "default",
      `bundle-${process.version}-${process.arch}`,
      "other",
      `main.cjs.${nameHash(source)}.v8`,
    );
  }, 120_000);

  afterAll(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** Plants `bytes` as main.cjs's code cache under `cacheDir` (owned by this uid, as skillrt's files are). */
  function plant(cacheDir: string, bytes: Buffer): void {
    const file = path.join(cacheDir, cacheRel);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, bytes, { mode: 0o600 });
  }

  /** `skillrt --version` with `env`: prints the version, never runs the planted code; its stderr. */
  async function version(env: Record<string, string>): Promise<string> {
    const run = await runCli(["--version"], { cwd: base, env, timeoutMs: 20_000 });
    expect(fs.existsSync(marker), "the planted code ran").toBe(false);
    expect(run.stdout.trim()).toBe(VERSION);
    expect(run.code).toBe(0);
    return run.stderr;
  }

  it("the user's own private cache: a planted cache of another script of the same length is not used", async () => {
    const dir = path.join(base, "own");
    plant(dir, planted.raw);
    expect(await version({ SKILLRT_CACHE_DIR: dir })).toBe("");
    // Rewritten from the real source (what a run that compiled main.cjs leaves).
    const file = path.join(dir, cacheRel);
    expect(fs.readFileSync(file).subarray(0, 11).toString()).toBe("skillrt-v8 ");
    expect(fs.readFileSync(file).includes(planted.raw)).toBe(false);
    expect(await version({ SKILLRT_CACHE_DIR: dir })).toBe("");
  });

  it("a code cache folder reached through a symlink another uid made is refused, with one warning", async () => {
    // Where the link leads is the user's own (files skillrt itself wrote there, say): only the link is theirs.
    const cacheDir = path.join(base, "victim-cache");
    fs.mkdirSync(cacheDir, { mode: 0o700 });
    const theirs = path.join(base, "extracted");
    plant(theirs, planted.forged);
    const sticky = path.join(base, "sticky");
    fs.mkdirSync(sticky);
    fs.chmodSync(sticky, 0o1777);
    asNobody(`ln -s '${path.join(theirs, "v8")}' '${path.join(sticky, "v8")}'`);
    fs.symlinkSync(path.join(sticky, "v8"), path.join(cacheDir, "v8"));
    const stderr = await version({ SKILLRT_CACHE_DIR: cacheDir });
    const lines = stderr.split("\n").filter((l) => l.includes("cache directory"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${path.join(sticky, "v8")} on its path is a symlink owned by uid 65534`);
    expect(fs.readFileSync(path.join(theirs, cacheRel))).toEqual(planted.forged); // neither read nor replaced
    // The whole cache directory through the attacker's link: refused as well (the commands that use it warn).
    asNobody(`ln -s '${theirs}' '${path.join(sticky, "cache")}'`);
    await version({ SKILLRT_CACHE_DIR: path.join(sticky, "cache") });
    expect(fs.readFileSync(path.join(theirs, cacheRel))).toEqual(planted.forged);
  });

  it("a cache below a folder anyone can write (not sticky) is refused, though every file in it is the user's", async () => {
    const shared = path.join(base, "shared");
    const cacheDir = path.join(shared, "cache");
    plant(cacheDir, planted.forged);
    fs.chmodSync(shared, 0o777);
    await version({ SKILLRT_CACHE_DIR: cacheDir });
    expect(fs.readFileSync(path.join(cacheDir, cacheRel))).toEqual(planted.forged);
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
