/**
 * Start-up with Node's own means: the bin, the build scripts and the CLI use no `vm` to compile skillrt's
 * code, no swap of Node's private `Module._extensions`, and no chunk lists of their own (the bundler chooses
 * the chunks from the import graph). What the CLI then loads is checked by behaviour in
 * src/cli/bin.test.ts (plain `list` loads no agent code).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");

/** Every .ts/.js/.mjs file below `dir` (tests excluded), with its text. */
function sources(dir: string): Array<[string, string]> {
  return fs
    .readdirSync(path.join(repo, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js|mjs)$/.test(e.name) && !e.name.endsWith(".test.ts"))
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return [path.relative(repo, file), fs.readFileSync(file, "utf8")];
    });
}

describe("start-up with Node's own means", () => {
  const files = [
    ...sources("bin"),
    ...sources("scripts").filter(([file]) => /build/.test(file)),
    ...sources("src/cli"),
  ];

  it("finds the files it checks", () => {
    const names = files.map(([file]) => file);
    expect(names).toEqual(
      expect.arrayContaining([
        "bin/skillrt.js",
        "scripts/build.mjs",
        "scripts/build-library.mjs",
        "src/cli/main.ts",
      ]),
    );
  });

  it("uses no vm, no Module._extensions and no hand-made chunk lists", () => {
    for (const [file, text] of files) {
      expect(text, file).not.toMatch(/node:vm|\bvm\.Script\b|_extensions/);
      expect(text, file).not.toMatch(/\b(manualChunks|advancedChunks|groups)\s*:/);
      expect(text, file).not.toMatch(/createCachedData|cachedData\b/);
    }
  });

  it("turns on Node's compile cache in the bin and imports the CLI", () => {
    const bin = fs.readFileSync(path.join(repo, "bin/skillrt.js"), "utf8");
    expect(bin).toContain("enableCompileCache");
    expect(bin).toContain("checkCacheDir(compileDir, { create: true })");
    expect(bin).toMatch(/await import\(/);
  });
});
