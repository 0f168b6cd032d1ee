import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  checkCacheDir,
  isWithin,
  openCacheFile,
  readCacheFile,
  untrustedCacheWarning,
  writeCacheFile,
} from "./trusted-cache.js";

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

  /** The reason `dir` is refused ("" when it is accepted). */
  const refusal = (dir: string, create = false): string => {
    const trust = checkCacheDir(dir, { create });
    return trust.ok ? "" : trust.reason;
  };

  it("checks the whole path: a folder on the way others can write (not sticky) is refused, a sticky one is not", () => {
    const mine = path.join(base, "shared", "home", "cache");
    writeCacheFile(mine, "x.bin", ["kept"]);
    expect(refusal(mine)).toBe("");
    fs.chmodSync(path.join(base, "shared"), 0o777);
    expect(refusal(mine)).toBe(
      `other users can write to ${path.join(base, "shared")} on its path (mode 0777)`,
    );
    const refused = checkCacheDir(mine);
    if (!refused.ok)
      expect(untrustedCacheWarning(refused)).toContain("the folders above it must be yours or root's");
    expect(readCacheFile(mine, "x.bin", 100)).toBeUndefined();
    expect(() => writeCacheFile(mine, "y.bin", ["new"])).toThrow(/refused/);
    // Group-writable is others too, when the group has others (65534: nogroup)...
    fs.chmodSync(path.join(base, "shared"), 0o775);
    if (isRoot) {
      fs.chownSync(path.join(base, "shared"), 0, 65534);
      expect(refusal(mine)).toMatch(/on its path \(mode 0775\)/);
      // ...but not when it is the user's private group (root's here: no other member, no other account's).
      fs.chownSync(path.join(base, "shared"), 0, 0);
      expect(refusal(mine)).toBe("");
    }
    // Sticky (as /tmp is): others cannot rename or remove what is ours in it.
    fs.chmodSync(path.join(base, "shared"), 0o1777);
    expect(refusal(mine)).toBe("");
    expect(readCacheFile(mine, "x.bin", 100)?.toString()).toBe("kept");
    // But never as the cache directory itself.
    fs.chmodSync(mine, 0o1777);
    expect(refusal(mine)).toBe("other users can write to it (mode 1777)");
  });

  it("follows a symlink of the user's own and checks where it leads, along that path too", () => {
    const open = path.join(base, "open");
    const cache = path.join(open, "cache");
    writeCacheFile(cache, "x.bin", ["kept"]);
    fs.symlinkSync("open/cache", path.join(base, "rel-link"));
    fs.symlinkSync(path.join(base, "rel-link"), path.join(base, "abs-link"));
    expect(readCacheFile(path.join(base, "abs-link"), "x.bin", 100)?.toString()).toBe("kept");
    expect(refusal(path.join(base, "abs-link", "..", "open", "cache"))).toBe("");
    // The folder the link leads through becomes writable by others: refused through the links as well.
    fs.chmodSync(open, 0o777);
    expect(refusal(path.join(base, "abs-link"))).toContain(`other users can write to ${open} on its path`);
    fs.chmodSync(open, 0o700);
    // A link loop is refused, not followed for ever.
    fs.symlinkSync("loop-b", path.join(base, "loop-a"));
    fs.symlinkSync("loop-a", path.join(base, "loop-b"));
    expect(refusal(path.join(base, "loop-a", "c"), true)).toMatch(/more than 40 symlinks/);
  });

  it("creates each missing folder 0700 and checks it as it goes", () => {
    const dir = path.join(base, "a", "b", "c");
    expect(refusal(dir, true)).toBe("");
    for (const at of ["a", "a/b", "a/b/c"])
      expect(fs.statSync(path.join(base, at)).mode & 0o7777, at).toBe(0o700);
    // Under a plain file nothing is created and the reason names it.
    fs.writeFileSync(path.join(base, "file"), "");
    expect(refusal(path.join(base, "file", "cache"), true)).toBe(
      `${path.join(base, "file")} on its path is not a directory`,
    );
  });

  it.runIf(isRoot)("refuses a path through a symlink another uid owns, even in a sticky folder", () => {
    const real = path.join(base, "real");
    writeCacheFile(real, "x.bin", ["kept"]);
    const sticky = path.join(base, "sticky");
    fs.mkdirSync(sticky, { mode: 0o1777 });
    fs.chmodSync(sticky, 0o1777);
    fs.symlinkSync(real, path.join(sticky, "theirs"));
    fs.lchownSync(path.join(sticky, "theirs"), 65534, 65534);
    for (const dir of [path.join(sticky, "theirs"), path.join(sticky, "theirs", "sub")]) {
      expect(refusal(dir, true)).toBe(
        `${path.join(sticky, "theirs")} on its path is a symlink owned by uid 65534, not by you (uid 0) or root`,
      );
    }
    expect(readCacheFile(path.join(sticky, "theirs"), "x.bin", 100)).toBeUndefined();
    expect(fs.existsSync(path.join(real, "sub"))).toBe(false);
    // The same link made by the user is followed.
    fs.lchownSync(path.join(sticky, "theirs"), 0, 0);
    expect(readCacheFile(path.join(sticky, "theirs"), "x.bin", 100)?.toString()).toBe("kept");
  });

  it.runIf(isRoot)(
    "refuses a path through a folder another uid owns, and a folder another uid made first",
    () => {
      const mine = path.join(base, "theirs", "mine");
      writeCacheFile(mine, "x.bin", ["kept"]);
      fs.chownSync(path.join(base, "theirs"), 65534, 65534);
      expect(refusal(mine)).toBe(
        `${path.join(base, "theirs")} on its path is owned by uid 65534, not by you (uid 0) or root`,
      );
      expect(readCacheFile(mine, "x.bin", 100)).toBeUndefined();
      // In a sticky folder, another uid creates the cache folder before the user does: found and refused.
      const sticky = path.join(base, "sticky");
      fs.mkdirSync(sticky);
      fs.chmodSync(sticky, 0o1777);
      fs.mkdirSync(path.join(sticky, "cache", "v8"), { recursive: true, mode: 0o700 });
      fs.chownSync(path.join(sticky, "cache"), 65534, 65534);
      expect(refusal(path.join(sticky, "cache", "v8"), true)).toContain("owned by uid 65534");
    },
  );

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
