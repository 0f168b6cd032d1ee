import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultCacheDir } from "./cache-dir.js";
import {
  CATALOG_CACHE_VERSION,
  loadCatalogCache,
  readRootCache,
  rootCacheFile,
  saveCatalogCache,
} from "./catalog-cache.js";
import { checksum } from "./checksummed-file.js";
import { createCatalog } from "./create-catalog.js";
import { SETTLE_MS } from "./file-identity.js";
import type { KnownListing } from "./list-dirs.js";
import { reuseCachedScan } from "./reuse-cached-scan.js";
import { scanCatalog } from "./scan-catalog.js";
import { readSearchCache } from "./search-cache.js";
import type { Catalog, CatalogOptions, SkillRoot } from "./types.js";

let tmp: string;
let root: string;
let cacheDir: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-cache-")));
  root = `${tmp}/skills`;
  cacheDir = `${tmp}/cache`;
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function skill(dir: string, description: string, extra = ""): void {
  write(
    `${dir}/SKILL.md`,
    `---\nname: ${path.basename(dir)}\ndescription: ${description}\n${extra}---\nBody.\n`,
  );
}

/** A tree with the cases a cache must keep: nested, lower-case, linked, broken, lenient repairs. */
function tree(): void {
  skill(`${root}/alpha`, "Alpha skill.", "license: MIT\nmetadata:\n  author: a\nallowed-tools: Read Bash\n");
  skill(`${root}/alpha/sub/inner`, "Nested skill.");
  write(`${root}/lower/skill.md`, "---\nname: lower\ndescription: Lower case file.\n---\n");
  skill(`${tmp}/outside/linked`, "Reached through a link.");
  fs.symlinkSync(`${tmp}/outside/linked`, `${root}/linked`);
  write(`${root}/broken/SKILL.md`, "---\nname: [unclosed\n---\n");
  write(`${root}/repaired/SKILL.md`, "---\nname: repaired\ndescription: Uses: a colon\n---\n");
  skill(`${root}/alpha/scripts/not-a-skill`, "Inside scripts/: never a skill.");
}

const options = (extra: Partial<CatalogOptions> = {}): CatalogOptions => ({
  roots: [root],
  cacheDir,
  ...extra,
});

/** What a user of the catalog sees, as JSON text. */
function seen(catalog: Catalog): string {
  return JSON.stringify({ skills: catalog.list(), diagnostics: catalog.diagnostics() });
}

/** Lets every file written so far settle (see SETTLE_MS) by moving the clock forward. */
function settle(): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + SETTLE_MS + 5000);
}

/** A string as the cache stores it (JSON). */
const cell = (text: string): string => JSON.stringify(text);

/** Rewrites the cache file of `root` through `edit`, with a valid checksum (what the scan trusts). */
function editCache(edit: (body: string) => string): void {
  const file = rootCacheFile(cacheDir, { path: root, scope: "root" }, "lenient");
  const data = fs.readFileSync(file);
  const before = data.toString("utf8", data.indexOf(10) + 1);
  const after = edit(before);
  expect(after, "the edit changed the cache").not.toBe(before);
  const body = Buffer.from(after);
  const sum = checksum(body);
  fs.writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`skillrt-catalog-cache ${CATALOG_CACHE_VERSION} ${sum} ${body.length}\n`),
      body,
    ]),
  );
}

describe("metadata cache", () => {
  it("serves a warm start from the cache with the same records and diagnostics as a cold scan", async () => {
    tree();
    const cold = seen(await createCatalog({ roots: [root] }));
    expect(cold).toContain("Nested skill.");
    const first = seen(await createCatalog(options()));
    const file = rootCacheFile(cacheDir, { path: root, scope: "root" }, "lenient");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
    settle();
    const warm = seen(await createCatalog(options()));
    const warmAgain = seen(await createCatalog(options()));
    expect(first).toBe(cold);
    expect(warm).toBe(cold);
    expect(warmAgain).toBe(cold);
    // No temporary files are left behind.
    expect(fs.readdirSync(cacheDir)).toEqual([path.basename(file)]);
  });

  it("drops a cached record naming another folder or file (re-reading its folder), and a listing naming '..'", async () => {
    tree();
    const cold = seen(await createCatalog({ roots: [root] }));
    await createCatalog(options());
    settle();
    await createCatalog(options());
    const stored = `${cell("Alpha skill.")},"location":"","dir":""`;
    editCache((body) =>
      body.replace(stored, `${cell("Alpha from the cache.")},"location":"/etc/passwd","dir":"/etc"`),
    );
    const catalog = await createCatalog(options());
    expect(catalog.get("alpha")).toMatchObject({
      description: "Alpha skill.",
      dir: `${root}/alpha`,
      location: `${root}/alpha/SKILL.md`,
    });
    expect(seen(catalog)).toBe(cold);
    // The same with no link in the root (a cache it could otherwise reuse whole, unscanned).
    fs.rmSync(`${root}/linked`);
    const unlinked = seen(await createCatalog({ roots: [root] }));
    await createCatalog(options());
    settle();
    await createCatalog(options());
    editCache((body) =>
      body.replace(stored, `${cell("Alpha from the cache.")},"location":"/etc/passwd","dir":"/etc"`),
    );
    expect(seen(await createCatalog(options()))).toBe(unlinked);
    editCache((body) => body.replace(/"alpha\/broken\//, '"../broken/'));
    expect(seen(await createCatalog(options()))).toBe(unlinked);
  });

  it("reuses an entry only while the folder and SKILL.md are unchanged", async () => {
    tree();
    await createCatalog(options());
    settle();
    await createCatalog(options()); // rewrites the cache with every entry settled
    // Proof that a settled entry is served from the cache: an edit made there (with a valid checksum) shows.
    editCache((body) => body.replace(cell("Alpha skill."), cell("Alpha from the cache.")));
    let catalog = await createCatalog(options());
    expect(catalog.get("alpha")?.description).toBe("Alpha from the cache.");
    // An edited SKILL.md (new size and times) is read again.
    skill(`${root}/alpha`, "Alpha edited.");
    // A new folder inside a cached one (its listing changed) is found.
    skill(`${root}/lower/added`, "Added later.");
    // A removed skill disappears.
    fs.rmSync(`${root}/repaired`, { recursive: true });
    catalog = await createCatalog(options());
    expect(catalog.get("alpha")?.description).toBe("Alpha edited.");
    expect(catalog.get("added")?.description).toBe("Added later.");
    expect(catalog.get("repaired")).toBeUndefined();
    expect(seen(catalog)).toBe(seen(await createCatalog({ roots: [root] })));
  });

  it("takes a tree without links whole from the cache while nothing changed, and scans when anything did", async () => {
    skill(`${root}/alpha`, "Alpha skill.");
    skill(`${root}/alpha/sub/inner`, "Nested skill.");
    skill(`${root}/beta`, "Beta skill.");
    const missing = `${tmp}/missing`;
    const roots: SkillRoot[] = [
      { path: root, scope: "root" },
      { path: missing, scope: "user", optional: true },
    ];
    const opts = (extra: Partial<CatalogOptions> = {}) => ({ roots, cacheDir, ...extra });
    await createCatalog(opts());
    settle();
    await createCatalog(opts()); // rewrites the cache with every entry settled
    editCache((body) => body.replace(cell("Beta skill."), cell("Beta from the cache.")));
    // Served from the cache (the edit shows), with the output of a scan otherwise.
    const warm = await createCatalog(opts());
    expect(warm.get("beta")?.description).toBe("Beta from the cache.");
    expect(warm.get("inner")?.description).toBe("Nested skill.");
    // Other limits: scanned (depth 0 finds no skill below the root).
    expect((await createCatalog(opts({ maxDepth: 0 }))).list()).toEqual([]);
    expect((await createCatalog(opts())).get("beta")?.description).toBe("Beta skill.");
    // A file edited in place (its folder unchanged), a skill added deep down, the missing root created:
    // each is seen.
    skill(`${root}/alpha`, "Alpha edited.");
    expect((await createCatalog(opts())).get("alpha")?.description).toBe("Alpha edited.");
    skill(`${root}/alpha/sub/inner/deeper`, "Deeper.");
    expect((await createCatalog(opts())).get("deeper")?.description).toBe("Deeper.");
    skill(`${missing}/gamma`, "Gamma.");
    const last = await createCatalog(opts());
    expect(last.get("gamma")?.scope).toBe("user");
    expect(seen(last)).toBe(seen(await createCatalog({ roots })));
  });

  it("reads again what changed too close to the scan to trust its timestamps", async () => {
    tree();
    await createCatalog(options());
    editCache((body) => body.replace(cell("Alpha skill."), cell("Alpha from the cache.")));
    // No time has passed: the files are as young as the cache, so nothing of it is trusted.
    const catalog = await createCatalog(options());
    expect(catalog.get("alpha")?.description).toBe("Alpha skill.");
  });

  it("ignores a cache that cannot be trusted, and writes a good one again", async () => {
    tree();
    const cold = seen(await createCatalog({ roots: [root] }));
    await createCatalog(options());
    settle();
    const file = rootCacheFile(cacheDir, { path: root, scope: "root" }, "lenient");
    const good = fs.readFileSync(file);
    const tamper = (bytes: Buffer) => {
      fs.writeFileSync(file, bytes);
    };
    const flipped = Buffer.from(good);
    const at = flipped.indexOf("Alpha skill.");
    flipped[at] = "B".charCodeAt(0); // same length, checksum no longer matches
    const cases: [string, () => void][] = [
      ["a flipped byte", () => tamper(flipped)],
      ["a truncated file", () => tamper(good.subarray(0, good.length >> 1))],
      ["an empty file", () => tamper(Buffer.alloc(0))],
      [
        "another version",
        () =>
          tamper(
            Buffer.from(good.toString("latin1").replace(` ${CATALOG_CACHE_VERSION} `, " 999 "), "latin1"),
          ),
      ],
      ["a valid checksum over the wrong shape", () => editCache(() => JSON.stringify({ v: 1, listings: 3 }))],
      ["text that does not parse", () => editCache(() => "{")],
      ["text cut short", () => editCache((body) => body.slice(0, -40))],
      [
        "an entry of the wrong type",
        () => editCache((body) => body.replace(`"name":${cell("alpha")}`, '"name":7')),
      ],
      ["a row of the wrong length", () => editCache((body) => body.replace('"skills":[[', '"skills":[[1,'))],
      ["another root's cache", () => editCache((body) => body.replace(cell(root), cell("/elsewhere")))],
    ];
    for (const [label, spoil] of cases) {
      spoil();
      expect(seen(await createCatalog(options())), label).toBe(cold);
      // The scan replaced it with a good cache.
      expect(fs.readFileSync(file).subarray(0, 22).toString(), label).toBe("skillrt-catalog-cache ");
    }
  });

  it("keeps one file per root and parse mode; no cache without a cacheDir", async () => {
    tree();
    skill(`${tmp}/second/beta`, "Beta.");
    const roots: SkillRoot[] = [
      { path: root, scope: "root" },
      { path: `${tmp}/second`, scope: "root" },
      { path: `${tmp}/missing`, scope: "root", optional: true },
    ];
    await createCatalog({ roots, cacheDir });
    await createCatalog({ roots, cacheDir, mode: "strict" });
    expect(fs.readdirSync(cacheDir).sort()).toEqual(
      [
        rootCacheFile(cacheDir, roots[0]!, "lenient"),
        rootCacheFile(cacheDir, roots[1]!, "lenient"),
        rootCacheFile(cacheDir, roots[0]!, "strict"),
        rootCacheFile(cacheDir, roots[1]!, "strict"),
      ]
        .map((file) => path.basename(file))
        .sort(),
    );
    fs.rmSync(cacheDir, { recursive: true });
    await createCatalog({ roots });
    expect(fs.existsSync(cacheDir)).toBe(false);
  });

  it("still scans when the cache directory cannot be written", async () => {
    tree();
    write(cacheDir, "a file where the cache directory should be");
    const catalog = await createCatalog(options());
    expect(catalog.get("alpha")?.description).toBe("Alpha skill.");
  });
});

describe("cache format", () => {
  it("keeps every key a record has, in order, and strings UTF-8 alone cannot carry", async () => {
    tree();
    const roots: SkillRoot[] = [{ path: root, scope: "root" }];
    const state = await scanCatalog({ roots, memory: [], mode: "lenient", memoryPrecedence: "last" });
    const alpha = state.scanned.get(`${root}/alpha`)?.record;
    if (alpha === undefined) throw new Error("alpha not scanned");
    // Fields a later version of the records may add travel with them, whatever their type.
    Object.assign(alpha, {
      head: "Opening line.\n## Usage",
      headings: ["Usage", "Notes"],
      lone: "a\uD800b",
      count: 3,
      nothing: null,
    });
    alpha.description = "Tab\tnewline\n 12:34; semicolon é 😀";
    saveCatalogCache(cacheDir, roots, "lenient", state, [], "6/2000");
    const loaded = readRootCache(rootCacheFile(cacheDir, roots[0]!, "lenient"), roots[0]!, "lenient");
    expect(loaded?.skills.size).toBe(state.scanned.size);
    expect(state.scanned.size).toBeGreaterThan(4);
    for (const [dir, skill] of state.scanned) {
      const back = loaded?.skills.get(dir);
      expect(back).toEqual(skill);
      // Same keys in the same order (JSON text), so a record from the cache prints as one just parsed.
      expect(JSON.stringify(back)).toBe(JSON.stringify(skill));
    }
    expect(loaded?.skills.get(`${root}/alpha`)?.record).toMatchObject({ lone: "a\uD800b", count: 3 });
    // Listings come back with the same identity, time, names and kinds (names and kinds split on use).
    const plain = (known: ReadonlyMap<string, KnownListing> | undefined) =>
      [...(known ?? [])].map(([dir, l]) => [
        dir,
        { id: l.id, readAt: l.readAt, names: l.names, kinds: l.kinds },
      ]);
    expect(plain(loaded?.known)).toEqual(plain(state.listings[0]));
    expect(loaded?.known.size).toBeGreaterThan(4);
  });
});

describe("reuseCachedScan", () => {
  it("returns the cached state only for closed, settled, unchanged roots with the same limits", async () => {
    skill(`${root}/alpha`, "Alpha skill.");
    skill(`${root}/beta`, "Beta skill.");
    const roots: SkillRoot[] = [{ path: root, scope: "root" }];
    const input = { roots, memory: [], mode: "lenient" as const, memoryPrecedence: "last" as const };
    await createCatalog({ roots, cacheDir });
    const reuse = (limits = "6/2000") =>
      reuseCachedScan(input, loadCatalogCache(cacheDir, roots, "lenient"), limits);
    expect(reuse()).toBeUndefined(); // written right after the files: not settled yet
    settle();
    await createCatalog({ roots, cacheDir });
    const state = reuse();
    expect(state?.records.map((r) => r.description)).toEqual(["Alpha skill.", "Beta skill."]);
    expect(JSON.stringify(state?.records)).toBe(JSON.stringify((await scanCatalog(input)).records));
    expect(reuse("1/2000")).toBeUndefined();
    fs.appendFileSync(`${root}/beta/SKILL.md`, "More body.\n");
    expect(reuse()).toBeUndefined();
    // A tree with a symlink is never taken whole: the link's target may change behind it.
    fs.symlinkSync(`${root}/alpha`, `${root}/alias`);
    await createCatalog({ roots, cacheDir });
    settle();
    await createCatalog({ roots, cacheDir });
    expect(loadCatalogCache(cacheDir, roots, "lenient").roots[0]?.closed).toBe(false);
    expect(reuse()).toBeUndefined();
  });
});

describe("search index in the cache", () => {
  it("stores the index with the catalog and loads it while the records are the same", async () => {
    tree();
    skill(`${root}/pdf-tools`, "Fill PDF forms and merge documents.", "tags: [pdf, forms]\n");
    const plain = await createCatalog({ roots: [root] });
    const hits = async (catalog: Catalog, query: string) =>
      (await catalog.search(query)).map((hit) => [hit.record.name, hit.score]);
    const cold = await createCatalog(options());
    expect(await hits(cold, "pdf forms")).toEqual(await hits(plain, "pdf forms"));
    const files = () => fs.readdirSync(cacheDir).filter((f) => f.startsWith("search-"));
    expect(files()).toHaveLength(1);
    const stored = fs.readFileSync(`${cacheDir}/${files()[0]}`);
    // The arrays start 8-byte aligned in the body (its JSON line is padded): read back as views of the
    // body's own buffer, not copied.
    const body = stored.subarray(stored.indexOf(10) + 1);
    expect((body.indexOf(10) + 1) % 8).toBe(0);
    const data = readSearchCache(
      cacheDir,
      [{ path: root, scope: "root" }],
      "lenient",
      JSON.parse(body.toString("utf8", 0, body.indexOf(10))).key,
    ) as Record<string, unknown>;
    const views = Object.values(data).filter((v) => ArrayBuffer.isView(v)) as ArrayBufferView[];
    expect(views.length).toBeGreaterThan(3);
    expect(new Set(views.map((v) => v.buffer)).size).toBe(1);
    expect(views[0]!.buffer.byteLength).toBe(body.length + 1);
    // Same records: the stored index serves the search (the file is not rewritten).
    const warm = await createCatalog(options());
    expect(await hits(warm, "pdf forms")).toEqual(await hits(plain, "pdf forms"));
    expect(await hits(warm, "nested")).toEqual(await hits(plain, "nested"));
    expect(fs.readFileSync(`${cacheDir}/${files()[0]}`).equals(stored)).toBe(true);
    // A new skill changes the records: the index is built again and finds it.
    skill(`${root}/merge-docs`, "Combine spreadsheets into one workbook.");
    const changed = await createCatalog(options());
    expect((await hits(changed, "combine spreadsheets"))[0]?.[0]).toBe("merge-docs");
    expect(await hits(changed, "combine spreadsheets")).toEqual(
      await hits(await createCatalog({ roots: [root] }), "combine spreadsheets"),
    );
    // A damaged index file is ignored.
    const file = `${cacheDir}/${files()[0]}`;
    const damaged = fs.readFileSync(file);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 5) ^ 1, damaged.length - 5);
    fs.writeFileSync(file, damaged);
    expect((await hits(await createCatalog(options()), "combine spreadsheets"))[0]?.[0]).toBe("merge-docs");
  });
});

describe("defaultCacheDir", () => {
  it("follows SKILLRT_CACHE, SKILLRT_CACHE_DIR, XDG_CACHE_HOME, then ~/.cache", () => {
    expect(defaultCacheDir({}, "/home/u")).toBe("/home/u/.cache/skillrt");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/xdg" }, "/home/u")).toBe("/xdg/skillrt");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "relative" }, "/home/u")).toBe("/home/u/.cache/skillrt");
    expect(defaultCacheDir({ SKILLRT_CACHE_DIR: "/c", XDG_CACHE_HOME: "/xdg" }, "/home/u")).toBe("/c");
    for (const off of ["0", "off", "false", "no"]) {
      expect(defaultCacheDir({ SKILLRT_CACHE: off, SKILLRT_CACHE_DIR: "/c" }, "/home/u")).toBeUndefined();
    }
  });
});
