import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalog } from "./create-catalog.js";
import type { Catalog } from "./types.js";

let tmp: string;
let catalog: Catalog;
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);

beforeAll(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-read-")));
  const dir = `${tmp}/root/doc`;
  await fs.mkdir(`${dir}/references`, { recursive: true });
  await fs.mkdir(`${dir}/scripts`, { recursive: true });
  await fs.mkdir(`${dir}/assets`, { recursive: true });
  await fs.mkdir(`${dir}/.hidden`, { recursive: true });
  await fs.writeFile(`${dir}/SKILL.md`, "---\nname: doc\ndescription: Docs.\n---\nBody\n");
  await fs.writeFile(`${dir}/references/guide.md`, "one\ntwo\nthree\nfour\n");
  await fs.writeFile(`${dir}/scripts/run.py`, "print('hi')\n");
  await fs.writeFile(`${dir}/assets/logo.png`, png);
  await fs.writeFile(`${dir}/assets/blob.txt`, Uint8Array.from([1, 2, 0, 3]));
  await fs.writeFile(`${dir}/.hidden/secret.txt`, "s");
  await fs.writeFile(`${tmp}/outside.txt`, "secret outside");
  await fs.mkdir(`${tmp}/outside-dir`);
  await fs.writeFile(`${tmp}/outside-dir/x.md`, "outside");
  await fs.symlink(`${tmp}/outside.txt`, `${dir}/references/escape.md`);
  await fs.symlink(`${tmp}/outside-dir`, `${dir}/linked-out`);
  await fs.symlink(`${dir}/references/guide.md`, `${dir}/inside-link.md`);
  catalog = await createCatalog({ roots: [`${tmp}/root`] });
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("files", () => {
  it("indexes the skill's files, SKILL.md first, with kind, mime and binary flag", async () => {
    const files = await catalog.files("doc");
    expect(files.map((f) => [f.path, f.kind, f.mimeType, f.binary])).toEqual([
      ["SKILL.md", "doc", "text/markdown", false],
      ["assets/blob.txt", "asset", "text/plain", true],
      ["assets/logo.png", "asset", "image/png", true],
      ["inside-link.md", "doc", "text/markdown", false],
      ["references/guide.md", "reference", "text/markdown", false],
      ["scripts/run.py", "script", "text/x-python", false],
    ]);
    expect(files.find((f) => f.path === "assets/logo.png")?.size).toBe(png.length);
  });
});

describe("readFile", () => {
  it("reads text with an inclusive 1-based line range", async () => {
    expect(await catalog.readFile("doc", "references/guide.md", { startLine: 2, endLine: 3 })).toEqual({
      kind: "text",
      path: "references/guide.md",
      content: "two\nthree",
      totalLines: 4,
      startLine: 2,
      endLine: 3,
      size: 19,
      mimeType: "text/markdown",
    });
    const whole = await catalog.readFile("doc", "./references//guide.md");
    expect(whole).toMatchObject({
      kind: "text",
      content: "one\ntwo\nthree\nfour\n",
      startLine: 1,
      endLine: 4,
    });
    expect(await catalog.readFile("doc", "references/guide.md", { startLine: 3, endLine: 99 })).toMatchObject(
      {
        content: "three\nfour",
        endLine: 4,
      },
    );
  });

  it("returns metadata only for binary files", async () => {
    expect(await catalog.readFile("doc", "assets/logo.png")).toEqual({
      kind: "binary",
      path: "assets/logo.png",
      size: png.length,
      mimeType: "image/png",
    });
    expect(await catalog.readFile("doc", "assets/blob.txt")).toMatchObject({ kind: "binary" });
  });

  it("refuses '..', absolute paths, NUL bytes, directories and symlinks that leave the skill", async () => {
    for (const bad of [
      "../doc/SKILL.md",
      "references/../../outside.txt",
      `${tmp}/outside.txt`,
      "/etc/passwd",
      "a\0b",
      "C:\\x",
    ]) {
      expect((await catalog.readFile("doc", bad)).kind, bad).toBe("refused");
    }
    const escaped = await catalog.readFile("doc", "references/escape.md");
    expect(escaped).toMatchObject({ kind: "refused" });
    expect(escaped.kind === "refused" && escaped.reason).toContain("outside the skill");
    expect((await catalog.readFile("doc", "linked-out/x.md")).kind).toBe("refused");
    expect((await catalog.readFile("doc", "references")).kind).toBe("refused");
    expect(await catalog.readFile("doc", "inside-link.md")).toMatchObject({
      kind: "text",
      content: "one\ntwo\nthree\nfour\n",
    });
  });

  it("lists the available paths, SKILL.md first, when a file is missing", async () => {
    const missing = await catalog.readFile("doc", "references/gide.md");
    expect(missing).toEqual({
      kind: "not-found",
      path: "references/gide.md",
      available: [
        "SKILL.md",
        "assets/blob.txt",
        "assets/logo.png",
        "inside-link.md",
        "references/guide.md",
        "scripts/run.py",
      ],
    });
  });

  it("never returns content from outside the skill directory, whatever the path (property)", async () => {
    const segment = fc.constantFrom(
      "..",
      ".",
      "",
      "references",
      "guide.md",
      "escape.md",
      "linked-out",
      "x.md",
      "SKILL.md",
      "outside.txt",
      "doc",
      "root",
    );
    const relPath = fc
      .tuple(fc.array(segment, { maxLength: 6 }), fc.constantFrom("/", "\\"), fc.boolean())
      .map(([parts, sep, absolute]) => (absolute ? sep : "") + parts.join(sep));
    await fc.assert(
      fc.asyncProperty(relPath, async (requested) => {
        const result = await catalog.readFile("doc", requested);
        if (result.kind === "text") {
          expect(result.content).not.toContain("outside");
          const real = await fs.realpath(path.join(`${tmp}/root/doc`, result.path));
          expect(real.startsWith(`${tmp}/root/doc/`)).toBe(true);
        }
        expect(["text", "binary", "not-found", "refused"]).toContain(result.kind);
      }),
      { numRuns: 300 },
    );
  });
});
