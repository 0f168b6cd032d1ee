/**
 * `loadBundle` in a child process over a two-file CommonJS bundle: the code cache it writes at exit holds
 * the functions the run compiled (not only the top level), the next run takes it as it is, a changed file
 * runs its new code (also at the same length, which V8's own check misses) and its old cache is removed,
 * a cache planted for another script of the same length never runs, and a folder another user could
 * write is neither read nor written.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import Module from "node:module";
import path from "node:path";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileDist, repo } from "./__fixtures__/compile-dist.js";
import { makeTempDir } from "./__fixtures__/skill-tree.js";
import { COPY_LIMIT, verifiedCode } from "./load-bundle.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
let bundle: string;
let driver: string;

/** A chunk whose functions run only after it loaded (called by `main()`), so V8 compiles them lazily. */
const chunk = (factor: number) => `"use strict";
function helper(i) { return i * ${factor}; }
function work(n) { let x = 0; for (let i = 0; i < n; i++) x += helper(i); return x; }
exports.work = work;
`;

beforeAll(async () => {
  // The child imports the compiled module (as bin/skillrt.js does).
  await compileDist("cli/load-bundle.js");
  tmp = await makeTempDir("skillrt-load-bundle-");
  bundle = path.join(tmp.dir, "bundle");
  await fs.mkdir(bundle);
  await fs.writeFile(
    path.join(bundle, "main.cjs"),
    `"use strict";\nconst lib = require("./chunk-a.cjs");\nexports.main = () => lib.work(4);\n`,
  );
  await fs.writeFile(path.join(bundle, "chunk-a.cjs"), chunk(2));
  driver = path.join(tmp.dir, "driver.mjs");
  await fs.writeFile(
    driver,
    `const { loadBundle } = await import(${JSON.stringify(path.join(repo, "dist", "cli", "load-bundle.js"))});
const caches = process.argv[3] === "none" ? undefined : process.argv[3];
console.log(loadBundle(process.argv[2], caches).main());
`,
  );
}, 120_000);

afterAll(async () => {
  await tmp.cleanup();
});

function run(caches: string): string {
  return execFileSync(process.execPath, [driver, path.join(bundle, "main.cjs"), caches], {
    encoding: "utf8",
  }).trim();
}

/** The one cache file of bundle file `file` in `caches` (named `<file>.<content hash>.v8`). */
async function onlyCache(caches: string, file: string): Promise<string> {
  const names = (await fs.readdir(caches)).filter((n) => n.startsWith(`${file}.`) && n.endsWith(".v8"));
  expect(names).toHaveLength(1);
  return path.join(caches, names[0]!);
}

async function privateDir(name: string): Promise<string> {
  const dir = path.join(tmp.dir, name);
  await fs.mkdir(dir, { mode: 0o700 });
  await fs.chmod(dir, 0o700);
  return dir;
}

describe("loadBundle", () => {
  it("writes each file's cache at exit with the functions the run compiled, and the next run takes it as it is", async () => {
    const caches = await privateDir("caches");
    expect(run(caches)).toBe("12");
    const cacheFile = await onlyCache(caches, "chunk-a.cjs");
    const written = await fs.readFile(cacheFile);
    expect((await fs.stat(cacheFile)).mode & 0o777).toBe(0o600);
    expect((await fs.readdir(caches)).map((f) => f.replace(/\.[0-9a-z]+\.v8$/, "")).sort()).toEqual([
      "chunk-a.cjs",
      "main.cjs",
    ]);
    // A cache made at load (what Node's compile cache keeps) has neither `work` nor `helper`.
    const source = await fs.readFile(path.join(bundle, "chunk-a.cjs"), "utf8");
    const atLoad = new vm.Script(Module.wrap(source)).createCachedData();
    expect(written.length).toBeGreaterThan(atLoad.length);

    const before = (await fs.stat(cacheFile)).mtimeMs;
    expect(run(caches)).toBe("12");
    expect((await fs.stat(cacheFile)).mtimeMs).toBe(before);
    expect(await fs.readFile(cacheFile)).toEqual(written);
  });

  it("runs a changed file's new code, even of the same length (V8 checks only the length), and drops the old cache", async () => {
    const caches = await privateDir("caches-changed");
    expect(run(caches)).toBe("12");
    const old = await onlyCache(caches, "chunk-a.cjs");
    // `* 3` for `* 2`: the same length, other code.
    await fs.writeFile(path.join(bundle, "chunk-a.cjs"), chunk(3));
    try {
      expect(run(caches)).toBe("18");
      const replaced = await onlyCache(caches, "chunk-a.cjs");
      expect(replaced).not.toBe(old);
      expect(run(caches)).toBe("18");
    } finally {
      await fs.writeFile(path.join(bundle, "chunk-a.cjs"), chunk(2));
    }
  });

  it("never runs a planted code cache made from another script of the same length (V8 would take it)", async () => {
    const caches = await privateDir("caches-planted");
    expect(run(caches)).toBe("12");
    const cacheFile = await onlyCache(caches, "chunk-a.cjs");
    // The attacker's script: chunk-a's length, `* 7` for `* 2`, its functions compiled into the cache.
    const evil = chunk(7);
    const source = await fs.readFile(path.join(bundle, "chunk-a.cjs"), "utf8");
    expect(evil.length).toBe(source.length);
    const script = new vm.Script(Module.wrap(evil));
    const exported: { work?: (n: number) => number } = {};
    (script.runInThisContext() as (e: object) => void)(exported);
    expect(exported.work?.(4)).toBe(42);
    const planted = script.createCachedData();
    // V8 alone accepts it for chunk-a's source: the check that is not enough.
    expect(new vm.Script(Module.wrap(source), { cachedData: planted }).cachedDataRejected).toBe(false);
    const plants: Record<string, Buffer> = {
      "V8's own cache": planted,
      "a cache as skillrt writes it, of the other script": Buffer.concat([
        Buffer.from(`skillrt-v8 copy ${evil.length}\n`),
        Buffer.from(evil),
        planted,
      ]),
    };
    for (const [label, bytes] of Object.entries(plants)) {
      await fs.writeFile(cacheFile, bytes, { mode: 0o600 });
      // The planted code would make it 42: the run compiled chunk-a's own source (and rewrote the cache).
      expect(run(caches), label).toBe("12");
      expect(verifiedCode(await fs.readFile(cacheFile), Buffer.from(source)), label).toBeDefined();
      expect(run(caches), label).toBe("12");
    }
  });

  it("binds a cache to its exact source: a copy of a small one, the SHA-256 of a large one", () => {
    const small = Buffer.from("exports.a = 1;\n");
    const data = Buffer.from("V8 DATA");
    const ofSmall = Buffer.concat([Buffer.from(`skillrt-v8 copy ${small.length}\n`), small, data]);
    expect(verifiedCode(ofSmall, small)).toEqual(data);
    expect(verifiedCode(ofSmall, Buffer.from("exports.a = 2;\n"))).toBeUndefined();
    expect(verifiedCode(ofSmall.subarray(0, ofSmall.length - data.length), small)).toBeUndefined();
    const large = Buffer.alloc(COPY_LIMIT + 1, "x");
    const digest = createHash("sha256").update(large).digest("hex");
    const ofLarge = Buffer.concat([Buffer.from(`skillrt-v8 sha256 ${digest}\n`), data]);
    expect(verifiedCode(ofLarge, large)).toEqual(data);
    const other = Buffer.from(large);
    other[COPY_LIMIT] = 0x79;
    expect(verifiedCode(ofLarge, other)).toBeUndefined();
  });

  it("neither reads nor writes a folder others can write, and runs without caches when given none", async () => {
    const shared = await privateDir("caches-shared");
    await fs.chmod(shared, 0o777);
    // A planted cache in it is not read: the run compiles from source (and is right).
    await fs.writeFile(path.join(shared, "main.cjs.v8"), "not a cache");
    expect(run(shared)).toBe("12");
    expect((await fs.readdir(shared)).sort()).toEqual(["main.cjs.v8"]);
    expect(await fs.readFile(path.join(shared, "main.cjs.v8"), "utf8")).toBe("not a cache");
    expect(run("none")).toBe("12");
  });
});
