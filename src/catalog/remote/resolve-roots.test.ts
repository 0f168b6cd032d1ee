import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTarGz, makeZip, skillMd } from "./__fixtures__/make-archives.js";
import { resolveRoots } from "./resolve-roots.js";

let dir: string;
let cacheDir: string;
let server: Server | undefined;
let files: Map<string, Buffer>;
let hits: string[];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-remote-"));
  cacheDir = path.join(dir, "cache");
  files = new Map();
  hits = [];
});
afterEach(async () => {
  await stop();
  await rm(dir, { recursive: true, force: true });
});

async function serve(): Promise<string> {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const body = files.get(req.url ?? "");
    if (body === undefined) {
      res.writeHead(404, "Not Found").end("no such file");
      return;
    }
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(): Promise<void> {
  const s = server;
  server = undefined;
  if (s !== undefined) await new Promise((resolve) => s.close(resolve));
}

async function skillsUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true });
  return entries.filter((e) => e.endsWith("SKILL.md")).sort();
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("resolveRoots", () => {
  it("fetches a .tar.gz, a .zip, a bare SKILL.md and an extension-less archive, then reuses the cache with the server gone", async () => {
    const base = await serve();
    files.set(
      "/a.tar.gz",
      makeTarGz([{ name: "pack/tarred/SKILL.md", data: skillMd("tarred", "From a tarball") }]),
    );
    files.set("/b.zip", makeZip([{ name: "zipped/SKILL.md", data: skillMd("zipped", "From a zip") }]));
    files.set("/skills/single/SKILL.md", Buffer.from(skillMd("single-one", "A bare file")));
    files.set(
      "/download?id=3",
      makeZip([{ name: "sniffed/SKILL.md", data: skillMd("sniffed", "By magic") }]),
    );
    const specs = [
      `${base}/a.tar.gz`,
      `${base}/b.zip`,
      `${base}/skills/single/SKILL.md`,
      `${base}/download?id=3`,
    ];
    const first = await resolveRoots(specs, { cacheDir, cwd: dir });
    expect(first.diagnostics).toEqual([]);
    expect(first.roots).toHaveLength(4);
    const found = await Promise.all(first.roots.map((r) => skillsUnder(r.path)));
    expect(found).toEqual([
      ["pack/tarred/SKILL.md"],
      ["zipped/SKILL.md"],
      ["single-one/SKILL.md"],
      ["sniffed/SKILL.md"],
    ]);
    expect(first.roots.map((r) => first.origins.get(r.path)?.source)).toEqual(specs);
    expect(first.origins.get(first.roots[1]?.path ?? "")?.digest).toBe(
      `sha256:${sha(files.get("/b.zip") as Buffer)}`,
    );
    for (const root of first.roots) expect(root.path.startsWith(path.join(cacheDir, "remote"))).toBe(true);
    expect(((await stat(path.join(cacheDir, "remote"))).mode & 0o777).toString(8)).toBe("700");

    await stop();
    const offline = await resolveRoots(specs, { cacheDir, cwd: dir });
    expect(offline.diagnostics).toEqual([]);
    expect(offline.roots.map((r) => r.path)).toEqual(first.roots.map((r) => r.path));
    // --refresh with the server down: the last good copy stands in, with a warning naming the failure.
    const refreshed = await resolveRoots([`${base}/b.zip`], { cacheDir, cwd: dir, refresh: true });
    expect(refreshed.roots.map((r) => r.path)).toEqual([first.roots[1]?.path]);
    expect(refreshed.diagnostics).toMatchObject([{ severity: "warning", code: "root-fetch-failed" }]);
    expect(refreshed.diagnostics[0]?.message).toContain(`Cannot fetch ${base}/b.zip`);
  });

  it("re-fetches on refresh and follows a changed upstream", async () => {
    const base = await serve();
    files.set("/c.zip", makeZip([{ name: "one/SKILL.md", data: skillMd("one", "First") }]));
    const first = await resolveRoots([`${base}/c.zip`], { cacheDir });
    files.set("/c.zip", makeZip([{ name: "two/SKILL.md", data: skillMd("two", "Second") }]));
    const cached = await resolveRoots([`${base}/c.zip`], { cacheDir });
    expect(cached.roots[0]?.path).toBe(first.roots[0]?.path);
    expect(hits).toEqual(["/c.zip"]);
    const refreshed = await resolveRoots([`${base}/c.zip`], { cacheDir, refresh: true });
    expect(await skillsUnder(refreshed.roots[0]?.path ?? "")).toEqual(["two/SKILL.md"]);
  });

  it("checks a #sha256= pin: the right one is used (also offline), a wrong one is refused naming both digests", async () => {
    const base = await serve();
    const zip = makeZip([{ name: "pinned/SKILL.md", data: skillMd("pinned", "Pinned") }]);
    files.set("/p.zip", zip);
    const wrong = "0".repeat(64);
    const refused = await resolveRoots([`${base}/p.zip#sha256=${wrong}`, path.join(dir, "plain")], {
      cacheDir,
    });
    expect(refused.roots.map((r) => r.path)).toEqual([path.join(dir, "plain")]);
    expect(refused.diagnostics).toMatchObject([{ code: "root-digest-mismatch", severity: "error" }]);
    expect(refused.diagnostics[0]?.message).toContain(wrong);
    expect(refused.diagnostics[0]?.message).toContain(sha(zip));
    const good = await resolveRoots([`${base}/p.zip#sha256=${sha(zip).toUpperCase()}`], { cacheDir });
    expect(good.diagnostics).toEqual([]);
    await stop();
    const offline = await resolveRoots([`${base}/p.zip#sha256=${sha(zip)}`], { cacheDir, refresh: true });
    expect(offline.roots.map((r) => r.path)).toEqual(good.roots.map((r) => r.path));
  });

  it("reports a non-2xx download with its URL and status, and keeps the other roots", async () => {
    const base = await serve();
    files.set("/ok.zip", makeZip([{ name: "ok/SKILL.md", data: skillMd("ok", "Fine") }]));
    const result = await resolveRoots([`${base}/missing.zip`, `${base}/ok.zip`], { cacheDir });
    expect(result.roots).toHaveLength(1);
    expect(result.diagnostics).toEqual([
      {
        code: "root-fetch-failed",
        severity: "error",
        message: `Cannot fetch ${base}/missing.zip: HTTP 404 Not Found.`,
        path: `${base}/missing.zip`,
      },
    ]);
  });

  it("refuses a download over the cap and a hostile archive, leaving the cache's temp dir empty", async () => {
    const base = await serve();
    files.set("/big.zip", Buffer.alloc(2048, 1));
    files.set(
      "/evil.tgz",
      makeTarGz([
        { name: "ok/SKILL.md", data: "x" },
        { name: "../../escaped.txt", data: "x" },
      ]),
    );
    const result = await resolveRoots([`${base}/big.zip`, `${base}/evil.tgz`], {
      cacheDir,
      maxDownloadBytes: 1024,
    });
    expect(result.roots).toEqual([]);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      `Cannot fetch ${base}/big.zip: it is 2.0 KiB, over the 1.0 KiB download limit.`,
      `${base}/evil.tgz: entry '../../escaped.txt' has '..' in its path; the archive was not extracted.`,
    ]);
    expect(await readdir(path.join(cacheDir, "remote"), { recursive: true })).toEqual(["tmp"]);
    await expect(stat(path.join(cacheDir, "escaped.txt"))).rejects.toThrow();
  });

  it("two fetches of the same source at once end with one good copy", async () => {
    const base = await serve();
    files.set("/race.zip", makeZip([{ name: "race/SKILL.md", data: skillMd("race", "Raced") }]));
    const [a, b] = await Promise.all([
      resolveRoots([`${base}/race.zip`], { cacheDir, refresh: true }),
      resolveRoots([`${base}/race.zip`], { cacheDir, refresh: true }),
    ]);
    expect(a.roots[0]?.path).toBe(b.roots[0]?.path);
    expect(await skillsUnder(a.roots[0]?.path ?? "")).toEqual(["race/SKILL.md"]);
    const remote = await readdir(path.join(cacheDir, "remote"));
    expect(remote.filter((n) => !n.endsWith(".json") && n !== "tmp")).toHaveLength(1);
    expect(await readdir(path.join(cacheDir, "remote", "tmp"))).toEqual([]);
  });

  it("clones a git+file:// repository at a tag, pinned to its commit, and reads local archives", async () => {
    const repo = path.join(dir, "repo");
    await mkdir(path.join(repo, "skills", "gitted"), { recursive: true });
    await writeFile(path.join(repo, "skills", "gitted", "SKILL.md"), skillMd("gitted", "From git"));
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        encoding: "utf8",
      });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "v1");
    git("tag", "-a", "v1", "-m", "v1");
    const commit = git("rev-parse", "HEAD").trim();
    await writeFile(path.join(repo, "skills", "gitted", "SKILL.md"), skillMd("gitted", "Changed after v1"));
    git("commit", "-qam", "v2");
    const archive = path.join(dir, "local.zip");
    await writeFile(archive, makeZip([{ name: "local/SKILL.md", data: skillMd("local", "On disk") }]));
    const result = await resolveRoots([`git+file://${repo}#v1`, "local.zip"], { cacheDir, cwd: dir });
    expect(result.diagnostics).toEqual([]);
    const [gitRoot, zipRoot] = result.roots;
    expect(await readFile(path.join(gitRoot?.path ?? "", "skills/gitted/SKILL.md"), "utf8")).toContain(
      "From git",
    );
    await expect(stat(path.join(gitRoot?.path ?? "", ".git"))).rejects.toThrow();
    expect(result.origins.get(gitRoot?.path ?? "")).toEqual({
      source: `git+file://${repo}#v1`,
      digest: `git:${commit}`,
    });
    expect(await skillsUnder(zipRoot?.path ?? "")).toEqual(["local/SKILL.md"]);
    // Gone upstream: the cached checkout is still the root.
    await rm(repo, { recursive: true });
    const offline = await resolveRoots([`git+file://${repo}#v1`], { cacheDir, cwd: dir });
    expect(offline.roots[0]?.path).toBe(gitRoot?.path);
  });

  it("refuses a git checkout past the size caps, and ignores the caller's GIT_DIR", async () => {
    const repo = path.join(dir, "big");
    await mkdir(repo);
    await writeFile(path.join(repo, "SKILL.md"), skillMd("big", "x".repeat(200)));
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        encoding: "utf8",
      });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "big");
    const previous = process.env["GIT_DIR"];
    process.env["GIT_DIR"] = path.join(dir, "elsewhere");
    try {
      const result = await resolveRoots([`git+file://${repo}`], {
        cacheDir,
        limits: { maxFileBytes: 100, maxTotalBytes: 1000 },
      });
      expect(result.roots).toEqual([]);
      expect(result.diagnostics[0]?.message).toMatch(
        /entry 'SKILL\.md' is 0\.\d KiB, over the 0\.1 KiB limit per file/,
      );
      expect(await readdir(path.join(cacheDir, "remote", "tmp"))).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env["GIT_DIR"];
      else process.env["GIT_DIR"] = previous;
    }
  });

  describe("git trees past the caps", () => {
    let home: string | undefined;
    let marker: string;
    beforeEach(async () => {
      // The user's git config (kept for fetches) has a hook and a filter driver (as git-lfs installs
      // one) that the repository's .gitattributes names: either running shows a checkout wrote files.
      home = process.env["HOME"];
      const fakeHome = path.join(dir, "home");
      const hooks = path.join(fakeHome, "hooks");
      marker = path.join(dir, "checked-out");
      await mkdir(hooks, { recursive: true });
      await writeFile(
        path.join(fakeHome, ".gitconfig"),
        `[core]\n\thooksPath = ${hooks}\n[filter "mark"]\n\tsmudge = sh -c 'touch ${marker}; cat'\n`,
      );
      await writeFile(path.join(hooks, "post-checkout"), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
      process.env["HOME"] = fakeHome;
    });
    afterEach(() => {
      if (home === undefined) delete process.env["HOME"];
      else process.env["HOME"] = home;
    });

    async function repoWith(name: string, files: Record<string, string | Buffer>): Promise<string> {
      const repo = path.join(dir, name);
      for (const [file, data] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
        await writeFile(path.join(repo, file), data);
      }
      await writeFile(path.join(repo, ".gitattributes"), "* filter=mark\n");
      const git = (...args: string[]) =>
        execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
      git("init", "-q");
      git("add", ".");
      git("commit", "-qm", "c");
      return `git+file://${repo}`;
    }
    const exists = (file: string) =>
      stat(file).then(
        () => true,
        () => false,
      );

    it("refuses an oversized file or too many files from the object sizes before writing, and runs no hook or filter", async () => {
      const limits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 8 * 1024 * 1024, maxEntries: 20 };
      const big = await repoWith("big", {
        "SKILL.md": skillMd("big", "Big"),
        "assets/big.bin": Buffer.alloc(2 * 1024 * 1024, 7),
      });
      const many = await repoWith(
        "many",
        Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`s/f${i}.txt`, `${i}`])),
      );
      const result = await resolveRoots([big, many], { cacheDir, limits });
      expect(result.roots).toEqual([]);
      expect(result.diagnostics.map((d) => d.message)).toEqual([
        `git+file://${dir}/big: entry 'assets/big.bin' is 2 MiB, over the 1 MiB limit per file; the archive was not extracted.`.replace(
          "git+file://",
          "file://",
        ),
        expect.stringMatching(
          /more than 20 files and folders \(the limit of one remote root, reached at 's\/f\d+\.txt'\)/,
        ),
      ]);
      expect(await exists(marker)).toBe(false);
      expect(await readdir(path.join(cacheDir, "remote", "tmp"))).toEqual([]);
      // The same repository within the caps is written from its blobs: no hook, no filter driver ran.
      const ok = await resolveRoots([big], {
        cacheDir,
        limits: { ...limits, maxFileBytes: 4 * 1024 * 1024 },
      });
      expect(ok.diagnostics).toEqual([]);
      const tree = ok.roots[0]?.path ?? "";
      expect((await stat(path.join(tree, "assets/big.bin"))).size).toBe(2 * 1024 * 1024);
      expect(await readFile(path.join(tree, "SKILL.md"), "utf8")).toBe(skillMd("big", "Big"));
      expect(await exists(marker)).toBe(false);
    });

    it("refuses a git tree with a name an archive may not have, writing nothing", async () => {
      const repo = await repoWith("named", { "SKILL.md": skillMd("named", "Named"), "a/c:evil.txt": "x" });
      const result = await resolveRoots([repo], { cacheDir });
      expect(result.diagnostics[0]?.message).toBe(
        `${repo.slice(4)}: entry 'a/c:evil.txt' has ':' in its name; the archive was not extracted.`,
      );
      expect(await readdir(path.join(cacheDir, "remote", "tmp"))).toEqual([]);
    });

    it("refuses a git root whose fetched objects pass the download cap, before checkout", async () => {
      const noise = Buffer.alloc(3 * 1024 * 1024);
      for (let i = 0; i < noise.length; i += 4) noise.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
      const repo = await repoWith("noisy", { "SKILL.md": skillMd("noisy", "Noise"), "noise.bin": noise });
      const result = await resolveRoots([repo], { cacheDir, maxDownloadBytes: 1024 * 1024 });
      expect(result.diagnostics[0]?.message).toBe(
        `Cannot fetch ${repo.slice(4)}: the fetched objects are over the 1 MiB download limit.`,
      );
      expect(await exists(marker)).toBe(false);
      expect(await readdir(path.join(cacheDir, "remote", "tmp"))).toEqual([]);
    });
  });

  it("stops a git fetch from a server that trickles, by git's minimum rate or the deadline", async () => {
    const timers: NodeJS.Timeout[] = [];
    server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" });
      res.flushHeaders();
      timers.push(setInterval(() => res.write("0"), 300));
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repo.git`;
    try {
      const started = Date.now();
      const slow = await resolveRoots([`git+${url}`], {
        cacheDir,
        transfer: { deadlineMs: 30_000, lowSpeedBytesPerSecond: 1000, lowSpeedMs: 1000 },
      });
      expect(slow.diagnostics[0]?.message).toMatch(/^Cannot list the refs of http:\/\/127.*: .*too slow/i);
      const late = await resolveRoots([`git+${url}`], {
        cacheDir,
        transfer: { deadlineMs: 800, lowSpeedBytesPerSecond: 0, lowSpeedMs: 1000 },
      });
      expect(late.diagnostics[0]?.message).toBe(
        `Cannot list the refs of ${url}: it took longer than the 0.8 s deadline (SKILLRT_REMOTE_TIMEOUT).`,
      );
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
    }
  });

  it("refuses a remote cache other users can write, at the cache dir or its remote/ folder, reading nothing from it", async () => {
    const base = await serve();
    files.set("/a.zip", makeZip([{ name: "a/SKILL.md", data: skillMd("a", "A") }]));
    await mkdir(cacheDir, { mode: 0o700 });
    await chmod(cacheDir, 0o777);
    const open = await resolveRoots([`${base}/a.zip`], { cacheDir });
    expect(open.roots).toEqual([]);
    expect(open.diagnostics[0]?.message).toBe(
      `The remote roots cache ${cacheDir} is not used: other users can write to it (mode 0777); no remote root is fetched or read from it. Fix: make it yours and private (chown $(id -u) and chmod 700 ${cacheDir}), or set SKILLRT_CACHE_DIR to a private directory.`,
    );
    expect(hits).toEqual([]);
    await chmod(cacheDir, 0o700);
    await mkdir(path.join(cacheDir, "remote"), { mode: 0o700 });
    await chmod(path.join(cacheDir, "remote"), 0o777);
    const planted = await resolveRoots([`${base}/a.zip`], { cacheDir });
    expect(planted.diagnostics[0]?.message).toMatch(
      /remote roots cache .*\/remote is not used: other users can write to it/,
    );
    await chmod(path.join(cacheDir, "remote"), 0o700);
    expect((await resolveRoots([`${base}/a.zip`], { cacheDir })).diagnostics).toEqual([]);
  });

  it("never shows a URL's credentials in diagnostics or sources", async () => {
    const base = await serve();
    const spec = base.replace("http://", "http://user:s3cret-token@");
    const result = await resolveRoots([`${spec}/missing.zip`], { cacheDir });
    expect(JSON.stringify(result.diagnostics)).not.toContain("s3cret-token");
    expect(result.diagnostics[0]?.path).toBe(`${base.replace("http://", "http://***@")}/missing.zip`);
    expect(result.diagnostics[0]?.message).toContain("HTTP 404");
  });

  it("never shows a password with '/', '@' or ':' in diagnostics, sources or cache records", async () => {
    const base = await serve();
    files.set("/ok.zip", makeZip([{ name: "ok/SKILL.md", data: skillMd("ok", "Fine") }]));
    const withAt = base.replace("http://", "http://user:p@ss:w0rd@");
    const withSlash = base.replace("http://", "http://user:sl/ash-secret@");
    const result = await resolveRoots([`${withAt}/missing.zip`, `${withSlash}/x.zip`, `${withAt}/ok.zip`], {
      cacheDir,
    });
    const shown = JSON.stringify([result.diagnostics, [...result.origins.values()]]);
    expect(result.diagnostics).toHaveLength(2);
    expect(result.diagnostics[0]?.message).toContain("HTTP 404");
    for (const secret of ["p@ss", "ss:w0rd", "sl/ash", "ash-secret"]) expect(shown).not.toContain(secret);
    expect([...result.origins.values()][0]?.source).toBe(`${base.replace("http://", "http://***@")}/ok.zip`);
    const records = await readdir(path.join(cacheDir, "remote"), { recursive: true });
    for (const file of records.filter((name) => name.endsWith(".json")))
      expect(await readFile(path.join(cacheDir, "remote", file), "utf8")).not.toContain("w0rd");
  });

  it("refuses file:// URLs of another host and unknown refs, naming them", async () => {
    const result = await resolveRoots(["file://example.com/skills.zip", `git+file://${dir}/none#v9`], {
      cacheDir,
    });
    expect(result.roots).toEqual([]);
    expect(result.diagnostics[0]?.message).toContain(
      "file:// URLs must name the local host (got 'example.com')",
    );
    expect(result.diagnostics[1]?.message).toMatch(/^Cannot list the refs of file:\/\/.*\/none/);
  });
});
