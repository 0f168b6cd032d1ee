/**
 * Remote and archive roots end to end: the built CLI (`skillrt list`/`show`) as a child process against a
 * loopback HTTP server serving archives and a bare SKILL.md, and a real git repository in a temp dir.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  makeTar,
  makeTarGz,
  makeTarGzBomb,
  makeZip,
  skillMd,
} from "../../src/catalog/remote/__fixtures__/make-archives.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

let dir: string;
let cwd: string;
let env: Record<string, string>;
let server: Server | undefined;
let base: string;
const files = new Map<string, Buffer>();

beforeAll(() => assertBuilt());
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-remote-e2e-"));
  cwd = path.join(dir, "work");
  await mkdir(cwd);
  env = { SKILLRT_CACHE_DIR: path.join(dir, "cache") };
  files.clear();
  server = createServer((req, res) => {
    const body = files.get(req.url ?? "");
    if (body === undefined) res.writeHead(404, "Not Found").end();
    else res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await stopServer();
  await rm(dir, { recursive: true, force: true });
});

async function stopServer(): Promise<void> {
  const s = server;
  server = undefined;
  if (s !== undefined) await new Promise((resolve) => s.close(resolve));
}

/** A git repository with skill `gitted` at tag v1, then a later commit changing it. */
async function gitRepo(): Promise<string> {
  const repo = path.join(dir, "repo");
  await mkdir(path.join(repo, "skills", "gitted"), { recursive: true });
  await writeFile(path.join(repo, "skills", "gitted", "SKILL.md"), skillMd("gitted", "From git at v1"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      encoding: "utf8",
    });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "v1");
  git("tag", "v1");
  await writeFile(path.join(repo, "skills", "gitted", "SKILL.md"), skillMd("gitted", "After v1"));
  git("commit", "-qam", "v2");
  return `git+file://${repo}#v1`;
}

interface Listed {
  skills: Array<{ name: string; description: string; source: string; location: string }>;
  diagnostics: Array<{ code: string; severity: string; message: string; path: string }>;
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("skillrt list --root <remote>", () => {
  it("lists skills of a .tar.gz, a .zip, a bare SKILL.md and a git+file:// tag with their source, then from the cache offline", async () => {
    files.set(
      "/pack.tar.gz",
      makeTarGz([{ name: "pack/tarred/SKILL.md", data: skillMd("tarred", "From a tarball") }]),
    );
    files.set("/pack.zip", makeZip([{ name: "zipped/SKILL.md", data: skillMd("zipped", "From a zip") }]));
    files.set("/one/SKILL.md", Buffer.from(skillMd("single", "A bare SKILL.md")));
    const specs = [`${base}/pack.tar.gz`, `${base}/pack.zip`, `${base}/one/SKILL.md`, await gitRepo()];
    const args = ["list", ...specs.flatMap((s) => ["--root", s])];

    const json = await runCli([...args, "--json"], { cwd, env });
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as Listed;
    const rows = listed.skills.map(({ name, description, source }) => ({ name, description, source }));
    expect(rows).toEqual([
      { name: "gitted", description: "From git at v1", source: specs[3] },
      { name: "single", description: "A bare SKILL.md", source: specs[2] },
      { name: "tarred", description: "From a tarball", source: specs[0] },
      { name: "zipped", description: "From a zip", source: specs[1] },
    ]);
    for (const skill of listed.skills)
      expect(skill.location.startsWith(path.join(dir, "cache", "remote"))).toBe(true);

    const text = await runCli(args, { cwd, env: { ...env, COLUMNS: "200" } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`tarred  From a tarball\n        from ${specs[0]}\n`);
    expect(text.stdout).toContain(`gitted  From git at v1\n        from ${specs[3]}\n`);

    // The server gone and the repository moved on: the cached copies are listed, the same.
    await stopServer();
    const offline = await runCli([...args, "--json"], { cwd, env });
    expect(offline.code).toBe(0);
    expect(offline.stderr).toBe("");
    expect((JSON.parse(offline.stdout) as Listed).skills.map((s) => s.name)).toEqual(rows.map((r) => r.name));

    const shown = await runCli(["show", "zipped", "--root", specs[1] as string], { cwd, env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("From a zip");
    expect(shown.stderr).toBe(`zipped: from ${specs[1]}\n`);
    const shownJson = await runCli(["show", "zipped", "--root", specs[1] as string, "--json"], { cwd, env });
    expect(JSON.parse(shownJson.stdout)).toMatchObject({ name: "zipped", source: specs[1] });

    // --refresh with the server down: the cached copy stands in, with a warning naming the failure.
    const refreshed = await runCli(["list", "--root", specs[1] as string, "--refresh", "--json"], {
      cwd,
      env,
    });
    expect(refreshed.code).toBe(0);
    const after = JSON.parse(refreshed.stdout) as Listed;
    expect(after.skills.map((s) => s.name)).toEqual(["zipped"]);
    expect(after.diagnostics[0]?.message).toContain(`Cannot fetch ${specs[1]}`);
  });

  it("refuses a wrong #sha256= naming both digests, and still lists the other roots", async () => {
    const zip = makeZip([{ name: "pinned/SKILL.md", data: skillMd("pinned", "Pinned") }]);
    files.set("/pinned.zip", zip);
    files.set("/other.tgz", makeTarGz([{ name: "other/SKILL.md", data: skillMd("other", "Another") }]));
    const wrong = "ab".repeat(32);
    const run = await runCli(
      ["list", "--root", `${base}/pinned.zip#sha256=${wrong}`, "--root", `${base}/other.tgz`],
      { cwd, env },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("other  Another");
    expect(run.stderr).toContain(`the root pins ${wrong} but the content is ${sha(zip)}; refused.`);
    const good = await runCli(["list", "--root", `${base}/pinned.zip#sha256=${sha(zip)}`, "--json"], {
      cwd,
      env,
    });
    expect(good.code).toBe(0);
    expect((JSON.parse(good.stdout) as Listed).skills.map((s) => s.name)).toEqual(["pinned"]);
  });

  it("refuses hostile archives and a failed download, each with a diagnostic, writing nothing outside the cache's temp dir", async () => {
    files.set("/ok.zip", makeZip([{ name: "ok/SKILL.md", data: skillMd("fine", "Still listed") }]));
    files.set(
      "/dotdot.tgz",
      makeTarGz([
        { name: "a/SKILL.md", data: "x" },
        { name: "a/../../../escaped.txt", data: "x" },
      ]),
    );
    files.set("/absolute.zip", makeZip([{ name: `${dir}/absolute.txt`, data: "x" }]));
    files.set("/colon.tar", makeTar([{ name: "a/c:evil.txt", data: "x" }]));
    files.set("/symlink.zip", makeZip([{ name: "a/link", type: "symlink", target: "/etc/passwd" }]));
    files.set("/bomb.tgz", await makeTarGzBomb(5, 60 * 1024 * 1024));
    const bad = ["dotdot.tgz", "absolute.zip", "colon.tar", "symlink.zip", "bomb.tgz", "missing.zip"];
    const roots = [...bad, "ok.zip"].flatMap((name) => ["--root", `${base}/${name}`]);
    const run = await runCli(["list", ...roots, "--json"], { cwd, env });
    expect(run.code).toBe(1);
    const listed = JSON.parse(run.stdout) as Listed;
    expect(listed.skills.map((s) => s.name)).toEqual(["fine"]);
    expect(listed.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "archive-entry-rejected",
        `${base}/dotdot.tgz`,
        `${base}/dotdot.tgz: entry 'a/../../../escaped.txt' has '..' in its path; the archive was not extracted.`,
      ],
      [
        "archive-entry-rejected",
        `${base}/absolute.zip`,
        `${base}/absolute.zip: entry '${dir}/absolute.txt' has an absolute path; the archive was not extracted.`,
      ],
      [
        "archive-entry-rejected",
        `${base}/colon.tar`,
        `${base}/colon.tar: entry 'a/c:evil.txt' has ':' in its name; the archive was not extracted.`,
      ],
      [
        "archive-entry-rejected",
        `${base}/symlink.zip`,
        `${base}/symlink.zip: entry 'a/link' is a link (links are not extracted); the archive was not extracted.`,
      ],
      [
        "archive-entry-rejected",
        `${base}/bomb.tgz`,
        `${base}/bomb.tgz: entry 'bomb/zeros-4.bin' takes the extracted size past the 256 MiB limit; the archive was not extracted.`,
      ],
      ["root-fetch-failed", `${base}/missing.zip`, `Cannot fetch ${base}/missing.zip: HTTP 404 Not Found.`],
    ]);
    // Only the good root was written; the temp dir is empty; nothing escaped.
    const remote = path.join(dir, "cache", "remote");
    expect((await readdir(remote)).filter((n) => !n.endsWith(".json")).length).toBe(2); // tmp + ok.zip's copy
    expect(await readdir(path.join(remote, "tmp"))).toEqual([]);
    for (const escaped of [
      path.join(dir, "escaped.txt"),
      path.join(dir, "cache", "escaped.txt"),
      path.join(dir, "absolute.txt"),
    ])
      await expect(stat(escaped)).rejects.toThrow();
    // The human output names each too, on stderr.
    const text = await runCli(["list", "--root", `${base}/missing.zip`], { cwd, env });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(`Cannot fetch ${base}/missing.zip: HTTP 404 Not Found.`);
  });

  it("two processes fetching the same root at once both list it from one copy", async () => {
    files.set("/race.zip", makeZip([{ name: "race/SKILL.md", data: skillMd("race", "Raced") }]));
    const args = ["list", "--root", `${base}/race.zip`, "--refresh", "--json"];
    const [a, b] = await Promise.all([runCli(args, { cwd, env }), runCli(args, { cwd, env })]);
    for (const run of [a, b]) {
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as Listed).skills.map((s) => s.name)).toEqual(["race"]);
    }
    const remote = path.join(dir, "cache", "remote");
    expect((await readdir(remote)).filter((n) => !n.endsWith(".json") && n !== "tmp")).toHaveLength(1);
    expect(await readdir(path.join(remote, "tmp"))).toEqual([]);
  });

  it("reads the config file's top-level roots besides the default ones, and local archives", async () => {
    files.set(
      "/conf.zip",
      makeZip([{ name: "conf/SKILL.md", data: skillMd("configured", "From the config") }]),
    );
    await writeFile(
      path.join(cwd, "local.tgz"),
      makeTarGz([{ name: "loc/SKILL.md", data: skillMd("local", "A local archive") }]),
    );
    await mkdir(path.join(cwd, "skills", "mine"), { recursive: true });
    await writeFile(path.join(cwd, "skills", "mine", "SKILL.md"), skillMd("mine", "Project skill"));
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify({ roots: [{ source: `${base}/conf.zip` }, "local.tgz"] }),
    );
    const run = await runCli(["list", "--json"], { cwd, env });
    expect(run.stderr).toBe("");
    const listed = JSON.parse(run.stdout) as Listed;
    expect(listed.skills.map((s) => [s.name, s.source])).toEqual([
      ["configured", `${base}/conf.zip`],
      ["local", path.join(cwd, "local.tgz")],
      ["mine", path.join(cwd, "skills")],
    ]);
  });
});
