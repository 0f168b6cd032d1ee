import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkCacheDir, isWithin, openCacheFile, readCacheFile, writeCacheFile } from "./trusted-cache.js";

const isRoot = process.getuid?.() === 0;

describe("the cache rule", () => {
  let base: string;
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-trust-")));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it("creates a missing directory 0700 and reads back what it wrote", () => {
    const dir = path.join(base, "a", "cache");
    expect(checkCacheDir(dir)).toEqual({ ok: true, dir }); // nothing there yet: nothing to read
    writeCacheFile(dir, "x.bin", ["head\n", Buffer.from("body")]);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, "x.bin")).mode & 0o777).toBe(0o600);
    expect(readCacheFile(dir, "x.bin", 100)?.toString()).toBe("head\nbody");
    expect(fs.readdirSync(dir)).toEqual(["x.bin"]); // no temporary file left
  });

  it("refuses a directory other users can write to: nothing read, nothing written", () => {
    const dir = path.join(base, "open");
    writeCacheFile(dir, "x.bin", ["kept"]);
    fs.chmodSync(dir, 0o777);
    const trust = checkCacheDir(dir);
    expect(trust.ok).toBe(false);
    expect(trust.ok ? "" : trust.reason).toContain("mode 0777");
    expect(readCacheFile(dir, "x.bin", 100)).toBeUndefined();
    expect(() => writeCacheFile(dir, "y.bin", ["new"])).toThrow(/refused/);
    expect(fs.readdirSync(dir)).toEqual(["x.bin"]);
    fs.chmodSync(dir, 0o770);
    expect(checkCacheDir(dir).ok).toBe(false); // group-writable too
  });

  it.runIf(isRoot)("refuses a directory owned by another uid", () => {
    const dir = path.join(base, "theirs");
    writeCacheFile(dir, "x.bin", ["planted"]);
    fs.chownSync(dir, 65534, 65534);
    const trust = checkCacheDir(dir);
    expect(trust.ok ? "" : trust.reason).toContain("owned by uid 65534");
    expect(readCacheFile(dir, "x.bin", 100)).toBeUndefined();
  });

  it.runIf(isRoot)("refuses a cache file owned by another uid in the user's own directory", () => {
    const dir = path.join(base, "mine");
    writeCacheFile(dir, "x.bin", ["planted"]);
    fs.chownSync(path.join(dir, "x.bin"), 65534, 65534);
    expect(readCacheFile(dir, "x.bin", 100)).toBeUndefined();
  });

  it("does not follow a symlink at a cache file's path, nor a symlinked directory owned by another", () => {
    const dir = path.join(base, "mine");
    writeCacheFile(dir, "real.bin", ["cached"]);
    fs.writeFileSync(path.join(base, "outside.txt"), "OUTSIDE");
    fs.symlinkSync(path.join(base, "outside.txt"), path.join(dir, "x.bin"));
    expect(readCacheFile(dir, "x.bin", 100)).toBeUndefined();
    // A link the user made to a private directory of theirs is what it points at.
    fs.symlinkSync(dir, path.join(base, "link"));
    expect(readCacheFile(path.join(base, "link"), "real.bin", 100)?.toString()).toBe("cached");
    fs.chmodSync(dir, 0o777);
    expect(checkCacheDir(path.join(base, "link")).ok).toBe(false);
  });

  it("does not hang on a FIFO at a cache file's path, and refuses files over the cap", () => {
    const dir = path.join(base, "mine");
    writeCacheFile(dir, "big.bin", [Buffer.alloc(101)]);
    execFileSync("mkfifo", [path.join(dir, "x.bin")]);
    const started = Date.now();
    expect(readCacheFile(dir, "x.bin", 100)).toBeUndefined();
    expect(openCacheFile(path.join(dir, "x.bin"), 100)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(readCacheFile(dir, "big.bin", 100)).toBeUndefined();
    expect(readCacheFile(dir, "big.bin", 101)?.length).toBe(101);
  });

  it("confines paths to a root lexically", () => {
    expect(isWithin("/r/root", "/r/root")).toBe(true);
    expect(isWithin("/r/root", "/r/root/a/SKILL.md")).toBe(true);
    expect(isWithin("/r/root", "/r/root/..b/.c")).toBe(true); // names that start with dots
    expect(isWithin("/", "/etc")).toBe(true);
    expect(isWithin("/r/", "/r/a")).toBe(true);
    for (const [root, p] of [
      ["/", "//etc"],
      ["/r/", "/r//a"],
      ["/r", "/r/"],
      ["r", "r/a"],
      ["/r", "/r/a/.."],
    ])
      expect(isWithin(root!, p!), `${root} ${p}`).toBe(false);
    for (const outside of [
      "/r/rootx",
      "/r/root/../etc",
      "/etc",
      "r/root/a",
      "/r/root/a/./b",
      "/r/root//a",
      "/r/root/a\0",
    ])
      expect(isWithin("/r/root", outside), outside).toBe(false);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "..", ".", "", "b/..", "root"), { maxLength: 6 }),
        (segments) => {
          const p = `/r/root/${segments.join("/")}`;
          // Whatever isWithin accepts resolves inside the root.
          if (isWithin("/r/root", p)) expect(isWithin("/r/root", path.resolve(p))).toBe(true);
          return true;
        },
      ),
    );
  });
});
