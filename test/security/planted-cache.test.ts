/**
 * Planted caches: the metadata and search caches live at predictable paths under `SKILLRT_CACHE_DIR`. A
 * second uid plants a crafted (correctly checksummed) cache in a directory it owns, or in a world-writable
 * one; a symlink or a FIFO takes a cache file's place; a crafted record in the user's own cache points at
 * /etc. The real CLI (dist/) must then list, search, render, show and run exactly what the root holds,
 * promptly, warn about a directory it refuses, and write nothing there.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checksum } from "../../src/catalog/checksummed-file.js";
import { assertBuilt, type CliRun, runCli } from "../e2e/support/run-cli.js";
import { asNobody, secondUid, snapshot, tempDir } from "./support.js";

/** What /etc/passwd starts with here: never in any output. */
const PASSWD = fs.readFileSync("/etc/passwd", "utf8").split("\n")[0]!;
const INJECTED = "INJECTED-description-from-a-planted-cache";

/** The commands checked after each plant, by label. */
const COMMANDS: Record<string, string[]> = {
  list: ["list", "--root", "root"],
  search: ["search", "alpha", "--root", "root"],
  prompt: ["prompt", "--root", "root"],
  show: ["show", "alpha", "--root", "root"],
  "show file": ["show", "alpha", "notes.txt", "--root", "root"],
  "show passwd": ["show", "alpha", "passwd", "--root", "root"],
  run: ["run", "alpha", "--root", "root", "--executor", "local", "--", "ls"],
};

/** Runs the CLI in `cwd` with the cache at `cacheDir`; killed after 20 s (a hang fails the test). */
function cli(args: string[], cwd: string, env: Record<string, string>): Promise<CliRun> {
  return runCli(args, { cwd, env, timeoutMs: 20_000 });
}

describe.runIf(secondUid.ok)("planted caches (second uid 65534)", () => {
  let base: string;
  let expected: Record<string, CliRun>;
  let good: { catalog: Buffer; catalogName: string; search: Buffer; searchName: string };
  const results: Array<{ attack: string; slowestMs: number; warned: boolean }> = [];

  beforeAll(async () => {
    assertBuilt();
    base = await tempDir("skillrt-sec-cache-");
    fs.chmodSync(base, 0o755); // the second uid reaches the directories planted below
    for (const [name, description] of [
      ["alpha", "Alpha does alpha things."],
      ["beta", "Beta does beta things."],
    ] as const) {
      fs.mkdirSync(path.join(base, "root", name), { recursive: true });
      fs.writeFileSync(
        path.join(base, "root", name, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${description}\n---\n${name} body.\n`,
      );
    }
    fs.writeFileSync(path.join(base, "root", "alpha", "notes.txt"), "alpha notes\n");
    // What each command prints without any cache.
    expected = {};
    for (const [label, args] of Object.entries(COMMANDS))
      expected[label] = await cli(args, base, { SKILLRT_CACHE: "0" });
    expect(expected["list"]!.stdout).toContain("alpha");
    expect(expected["show file"]!.stdout).toBe("alpha notes\n");
    expect(expected["run"]!.stdout).toContain("notes.txt");
    // A real cache of this root, to craft from.
    const scratch = path.join(base, "scratch");
    for (const args of [COMMANDS["list"]!, COMMANDS["search"]!])
      await cli(args, base, { SKILLRT_CACHE_DIR: scratch });
    const names = fs.readdirSync(scratch);
    const catalogName = names.find((n) => n.startsWith("catalog-"))!;
    const searchName = names.find((n) => n.startsWith("search-"))!;
    good = {
      catalog: fs.readFileSync(path.join(scratch, catalogName)),
      catalogName,
      search: fs.readFileSync(path.join(scratch, searchName)),
      searchName,
    };
  }, 120_000);

  afterAll(() => {
    console.info(JSON.stringify({ attack: "planted-cache", cases: results }));
    fs.rmSync(base, { recursive: true, force: true });
  });

  /**
   * The catalog cache with a crafted record (checksum recomputed): alpha's description injected and its
   * folder and file moved to /etc, and a skill of /etc added.
   */
  function crafted(): Buffer {
    const text = good.catalog.toString("utf8");
    const newline = text.indexOf("\n");
    const [magic, version] = text.slice(0, newline).split(" ");
    const body = JSON.parse(text.slice(newline + 1)) as { skills: unknown[][] };
    const alpha = body.skills.find((row) => row[0] === "./alpha")!;
    Object.assign(alpha[9] as object, { description: INJECTED, dir: "/etc", location: "/etc/passwd" });
    const etc = structuredClone(alpha);
    etc[0] = "/etc";
    Object.assign(etc[9] as object, { name: "gamma", dir: "", location: "" });
    body.skills.push(etc);
    const bytes = Buffer.from(JSON.stringify(body), "utf8");
    return Buffer.concat([Buffer.from(`${magic} ${version} ${checksum(bytes)} ${bytes.length}\n`), bytes]);
  }

  /** Runs every command against `cacheDir`: same output as without a cache, promptly, no /etc content. */
  async function check(attack: string, cacheDir: string, warning: RegExp | undefined): Promise<void> {
    let slowest = 0;
    let warned = true;
    for (const [label, args] of Object.entries(COMMANDS)) {
      const run = await cli(args, base, { SKILLRT_CACHE_DIR: cacheDir });
      slowest = Math.max(slowest, run.ms);
      const want = expected[label]!;
      expect(run.ms, `${attack}: ${label} took ${run.ms} ms`).toBeLessThan(15_000);
      expect({ code: run.code, stdout: run.stdout }, `${attack}: ${label}`).toEqual({
        code: want.code,
        stdout: want.stdout,
      });
      const all = run.stdout + run.stderr;
      expect(all).not.toContain(INJECTED);
      expect(all).not.toContain(PASSWD);
      expect(all).not.toContain("gamma");
      if (warning === undefined) {
        expect(run.stderr, `${attack}: ${label}`).toBe(want.stderr);
      } else {
        // One warning line naming the directory and the reason, then what the command says anyway.
        const lines = run.stderr.split("\n").filter((l) => l.includes("cache directory"));
        expect(lines, `${attack}: ${label}`).toHaveLength(1);
        expect(lines[0]).toContain(cacheDir);
        expect(lines[0]).toMatch(warning);
        warned &&= lines[0]!.includes("Caching is off");
      }
    }
    results.push({ attack, slowestMs: slowest, warned: warning !== undefined && warned });
  }

  /** Plants `files` (name to bytes) into `dir` as uid 65534, first setting its `mode` when given (it owns `dir`). */
  function plantAsNobody(dir: string, files: Record<string, Buffer>, mode?: string): void {
    const writes = Object.entries(files)
      .map(([name, bytes]) => `echo ${bytes.toString("base64")} | base64 -d > '${path.join(dir, name)}'`)
      .join("\n");
    asNobody(`${mode === undefined ? "" : `chmod ${mode} '${dir}'\n`}${writes}`);
  }

  it("a cache directory owned by another uid is refused: warned once per command, never read or written", async () => {
    const dir = path.join(base, "theirs");
    fs.mkdirSync(dir);
    fs.chownSync(dir, 65534, 65534);
    plantAsNobody(dir, { [good.catalogName]: crafted(), [good.searchName]: good.search }, "700");
    expect(fs.statSync(dir).uid).toBe(65534);
    const before = await snapshot(dir);
    await check("dir owned by uid 65534", dir, /owned by uid 65534/);
    expect(await snapshot(dir)).toEqual(before);
  }, 120_000);

  it("a world-writable cache directory is refused, and what another uid planted there is not read", async () => {
    const dir = path.join(base, "open");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    plantAsNobody(dir, { [good.catalogName]: crafted(), [good.searchName]: good.search });
    const before = await snapshot(dir);
    await check("world-writable dir", dir, /other users can write to it \(mode 0777\)/);
    expect(await snapshot(dir)).toEqual(before);
  }, 120_000);

  it("a cache directory reached through a symlink another uid owns is refused, though where it leads is the user's own", async () => {
    // The user's own private folder holding a crafted cache (as files skillrt itself wrote would be).
    const target = path.join(base, "own-target");
    fs.mkdirSync(target, { mode: 0o700 });
    fs.writeFileSync(path.join(target, good.catalogName), crafted(), { mode: 0o600 });
    fs.writeFileSync(path.join(target, good.searchName), good.search, { mode: 0o600 });
    // Another uid's link to it, in a sticky world-writable folder as /tmp is, and deeper in the path.
    const sticky = path.join(base, "sticky");
    fs.mkdirSync(sticky);
    fs.chmodSync(sticky, 0o1777);
    asNobody(
      `ln -s '${target}' '${path.join(sticky, "cache")}'; ln -s '${base}' '${path.join(sticky, "up")}'`,
    );
    fs.mkdirSync(path.join(base, "via"), { mode: 0o700 });
    fs.renameSync(target, path.join(base, "via", "cache"));
    fs.symlinkSync(path.join(base, "via", "cache"), target);
    expect(fs.lstatSync(path.join(sticky, "cache")).uid).toBe(65534);
    const before = await snapshot(path.join(base, "via"));
    await check("symlink owned by uid 65534", path.join(sticky, "cache"), /symlink owned by uid 65534/);
    await check(
      "symlink owned by uid 65534 on the way",
      path.join(sticky, "up", "via", "cache"),
      /symlink owned by uid 65534/,
    );
    expect(await snapshot(path.join(base, "via"))).toEqual(before);
  }, 120_000);

  it("a cache directory below a folder other users can write (not sticky) is refused, though it is the user's own", async () => {
    const shared = path.join(base, "shared");
    const dir = path.join(shared, "cache");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(shared, 0o777);
    fs.writeFileSync(path.join(dir, good.catalogName), crafted(), { mode: 0o600 });
    fs.writeFileSync(path.join(dir, good.searchName), good.search, { mode: 0o600 });
    const before = await snapshot(dir);
    await check(
      "writable folder on the way",
      dir,
      /other users can write to .*shared on its path \(mode 0777\)/,
    );
    expect(await snapshot(dir)).toEqual(before);
  }, 120_000);

  it("a cache file replaced by a symlink (to a crafted cache) is not followed", async () => {
    const dir = path.join(base, "linked");
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(base, "crafted.cache"), crafted());
    fs.symlinkSync(path.join(base, "crafted.cache"), path.join(dir, good.catalogName));
    fs.symlinkSync("/etc/passwd", path.join(dir, good.searchName));
    await check("symlinked cache files", dir, undefined);
    // The crafted file the link pointed at is untouched; the links were replaced by real caches.
    expect(fs.readFileSync(path.join(base, "crafted.cache"))).toEqual(crafted());
    expect(fs.lstatSync(path.join(dir, good.catalogName)).isFile()).toBe(true);
  }, 120_000);

  it("a FIFO at a cache file's path hangs nothing", async () => {
    const dir = path.join(base, "fifo");
    fs.mkdirSync(dir, { mode: 0o700 });
    for (const name of [good.catalogName, good.searchName]) {
      const made = spawnSync("mkfifo", [path.join(dir, name)]);
      expect(made.status).toBe(0);
    }
    await check("FIFO cache files", dir, undefined);
  }, 120_000);

  it("a crafted, correctly checksummed record pointing at /etc in the user's own cache is dropped and the folder re-read", async () => {
    const dir = path.join(base, "own");
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, good.catalogName), crafted(), { mode: 0o600 });
    fs.writeFileSync(path.join(dir, good.searchName), good.search, { mode: 0o600 });
    await check("crafted record to /etc", dir, undefined);
  }, 120_000);
});
