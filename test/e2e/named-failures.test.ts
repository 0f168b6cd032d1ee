/**
 * Each failure named for what it is, through the built CLI: an invalid config file is exit 2 naming the
 * file and the key (never "a bug in skillrt"), a FIFO at a lock file's path is refused at once instead of
 * hanging, a corrupt trust file is refused with its path (never read as empty, never written over), and a
 * full disk (a real, tiny tmpfs in a private mount namespace) names the file and the fix.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli } from "./support/run-cli.js";

const bin = path.resolve(import.meta.dirname, "../../bin/skillrt.js");
let dir: string;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-named-failures-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function skill(root: string, name: string): Promise<void> {
  mkdirSync(path.join(root, ".agents", "skills", name), { recursive: true });
  await writeFile(
    path.join(root, ".agents", "skills", name, "SKILL.md"),
    `---\nname: ${name}\ndescription: A test skill.\n---\nBody.\n`,
  );
}

describe("an invalid config file", () => {
  const commands: string[][] = [
    ["list"],
    ["search", "pdf"],
    ["show", "demo"],
    ["prompt"],
    ["lock"],
    ["run", "demo", "--", "true"],
    ["ask", "hello"],
  ];
  it.each(commands)(
    "is exit 2 naming the file and the key from `skillrt %s`",
    async (...args) => {
      await skill(dir, "demo");
      await writeFile(
        path.join(dir, "skillrt.config.json"),
        JSON.stringify({ exec: { timeoutSeconds: "soon" } }),
      );
      const run = await runCli(args, { cwd: dir, env: {}, timeoutMs: 30_000 });
      expect(run.code).toBe(2);
      expect(run.stderr).not.toContain("bug in skillrt");
      expect(run.stderr).toContain(path.join(dir, "skillrt.config.json"));
      expect(run.stderr).toContain("exec.timeoutSeconds");
      // One line, said by the command that failed.
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(new RegExp(`^skillrt ${args[0]}: `));
    },
    40_000,
  );

  it("that is not JSON is exit 2 naming the file", async () => {
    await writeFile(path.join(dir, "skillrt.config.json"), "{ not json");
    const run = await runCli(["list"], { cwd: dir, env: {}, timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(dir, "skillrt.config.json")}: invalid JSON`);
  }, 40_000);
});

describe("a FIFO named like a lock file", () => {
  it("is refused within a second by list and lock instead of hanging", async () => {
    await skill(dir, "demo");
    execFileSync("mkfifo", [path.join(dir, "skills-lock.json"), path.join(dir, "skillrt.lock.json")]);
    const list = await runCli(["list"], { cwd: dir, env: {}, timeoutMs: 10_000 });
    expect(list.code).toBe(0);
    expect(list.ms).toBeLessThan(1_000);
    expect(list.stderr).toContain(
      `${path.join(dir, "skills-lock.json")}: cannot read it: it is a FIFO (named pipe), not a regular file`,
    );
    const lock = await runCli(["lock"], { cwd: dir, env: {}, timeoutMs: 10_000 });
    expect(lock.ms).toBeLessThan(1_000);
    expect(lock.code).toBe(1);
    expect(lock.stderr).toContain(`${path.join(dir, "skillrt.lock.json")}: cannot read it: it is a FIFO`);
  }, 30_000);

  it("as the config file is exit 2 within a second", async () => {
    execFileSync("mkfifo", [path.join(dir, "skillrt.config.json")]);
    const run = await runCli(["list"], { cwd: dir, env: {}, timeoutMs: 10_000 });
    expect(run.ms).toBeLessThan(1_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not a regular file");
  }, 30_000);
});

describe("a corrupt trust file", () => {
  const corrupt = '{"version": 1, "roots": [ {"origin": ';
  async function setUp(): Promise<{ state: string; file: string; env: Record<string, string> }> {
    const state = path.join(dir, "state");
    mkdirSync(state, { mode: 0o700 });
    const file = path.join(state, "trust.json");
    await writeFile(file, corrupt, { mode: 0o600 });
    return { state, file, env: { SKILLRT_STATE_DIR: state } };
  }

  it("is refused with its path by `trust --list` and never written over by `trust`", async () => {
    const { file, env } = await setUp();
    await skill(dir, "demo");
    const list = await runCli(["trust", "--list"], { cwd: dir, env, timeoutMs: 20_000 });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(`the trust file ${file} is corrupt`);
    expect(list.stderr).toContain("nothing in it is trusted");
    expect(list.stderr).toContain(`mv '${file}'`);
    expect(list.stdout).not.toContain("No roots trusted");
    const trust = await runCli(["trust", "."], { cwd: dir, env, timeoutMs: 20_000 });
    expect(trust.code).toBe(1);
    expect(trust.stderr).toContain(`the trust file ${file} is corrupt`);
    // Not replaced by a file holding only the new record: what the user had is still there to recover.
    expect(readFileSync(file, "utf8")).toBe(corrupt);
  }, 40_000);

  it("is named when a project's config file is checked for trust (nothing in it trusted)", async () => {
    const { file, env } = await setUp();
    // A project apart from HOME, with a config file: whether it is trusted is read from the trust file.
    const project = path.join(dir, "project");
    mkdirSync(project);
    await skill(project, "demo");
    await writeFile(path.join(project, "skillrt.config.json"), JSON.stringify({ session: {} }));
    const run = await runCli(["list"], { cwd: project, env: { ...env, HOME: dir }, timeoutMs: 20_000 });
    expect(run.stderr).toContain(`the trust file ${file} is corrupt`);
    expect(run.stderr).toContain("nothing in it is trusted");
    expect(run.code).toBe(0);
  }, 40_000);
});

/** Whether this machine lets us mount a tmpfs in a private user and mount namespace. */
const canMount = spawnSync("unshare", ["-rm", "sh", "-c", "mount -t tmpfs tmpfs /mnt"]).status === 0;

describe.skipIf(!canMount)("a full disk", () => {
  /**
   * Runs `skillrt ARGS` in a project on a 256 KiB tmpfs filled to the last block, with the trust file's
   * directory on it too; the project's files afterwards are listed on stdout after a marker.
   */
  function onFullDisk(args: string[]): { code: number | null; stderr: string; left: string[] } {
    const mnt = path.join(dir, "mnt");
    mkdirSync(mnt);
    chmodSync(dir, 0o755);
    const script = [
      "set -e",
      'mount -t tmpfs -o size=256k tmpfs "$MNT"',
      'mkdir -m700 "$MNT/state" "$MNT/proj"',
      'mkdir -p "$MNT/proj/.agents/skills/demo"',
      'printf -- "---\\nname: demo\\ndescription: d\\n---\\nBody.\\n" > "$MNT/proj/.agents/skills/demo/SKILL.md"',
      'dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null || true',
      'cd "$MNT/proj"',
      'set +e; "$@"; code=$?; set -e',
      'echo "--- $code"; ls -A "$MNT/proj"',
    ].join("\n");
    const run = spawnSync("unshare", ["-rm", "sh", "-c", script, "sh", process.execPath, bin, ...args], {
      env: {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        HOME: dir,
        MNT: mnt,
        SKILLRT_STATE_DIR: path.join(mnt, "state"),
        NO_COLOR: "1",
      },
      encoding: "utf8",
      timeout: 30_000,
    });
    const [, after = ""] = run.stdout.split(/^--- /m);
    const [code = "", ...left] = after.trim().split("\n");
    return { code: Number(code), stderr: run.stderr, left: left.filter((l) => l !== "") };
  }

  it("during `trust` names the trust file and the fix (exit 1, not a bug)", () => {
    const run = onFullDisk(["trust", "."]);
    expect(run.stderr).toContain(
      `skillrt trust: cannot write ${path.join(dir, "mnt", "state", "trust.json")}: no space left on the device (ENOSPC). Free some space on that disk`,
    );
    expect(run.stderr).not.toContain("bug in skillrt");
    expect(run.code).toBe(1);
  });

  it("during `lock` names the lock file and leaves no temporary file in the project", () => {
    const run = onFullDisk(["lock"]);
    expect(run.stderr).toContain(
      `skillrt lock: cannot write ${path.join(dir, "mnt", "proj", "skillrt.lock.json")}: no space left on the device (ENOSPC)`,
    );
    expect(run.code).toBe(1);
    expect(run.left).toEqual([".agents"]);
  });
});
