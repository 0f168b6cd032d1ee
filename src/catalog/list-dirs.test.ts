import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ListDirsOptions, type ListingResult, listDirs } from "./list-dirs.js";
import { decodedHead, HEAD_BYTES, parserInput, readSkillHead } from "./read-skill-head.js";

let tmp: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-listdirs-")));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A listing in a comparable form: entries sorted by name, the head as text. */
function plain(result: ListingResult) {
  if ("error" in result) return { error: result.error.code };
  const entries: [string, number][] = [];
  for (let i = result.from; i < result.to; i++) entries.push([result.names[i]!, result.kinds[i]!]);
  entries.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return {
    entries,
    headOf: result.headOf,
    head: result.head === undefined ? undefined : (result.head.text ?? result.head.bytes.toString("utf8")),
    partial: result.head?.partial,
  };
}

function list(dirs: string[], options: ListDirsOptions) {
  const out: ReturnType<typeof plain>[] = [];
  listDirs(dirs, options, (index, listing) => {
    expect(index).toBe(out.length);
    out.push(plain(listing));
  });
  return out;
}

function write(file: string, text: string | Buffer): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** A tree with each case the listing must handle; returns the directories to list. */
function fixture(): string[] {
  const fm = (name: string) => `---\nname: ${name}\ndescription: "d: é ✓"\n---\n`;
  write(`${tmp}/small/SKILL.md`, `${fm("small")}short body\n`);
  write(`${tmp}/small/scripts/run.py`, "print(1)\n");
  write(`${tmp}/big/SKILL.md`, `${fm("big")}${"body line\n".repeat(2000)}`);
  write(`${tmp}/unclosed/SKILL.md`, `---\nname: unclosed\ndescription: ${"x".repeat(HEAD_BYTES * 2)}\n`);
  write(`${tmp}/exact/SKILL.md`, `${fm("exact")}${"y".repeat(HEAD_BYTES - fm("exact").length)}`);
  write(`${tmp}/lower/skill.md`, fm("lower"));
  write(`${tmp}/both/SKILL.md`, fm("upper"));
  write(`${tmp}/both/skill.md`, fm("lower"));
  fs.mkdirSync(`${tmp}/dir-named/SKILL.md`, { recursive: true });
  write(`${tmp}/dir-named/skill.md`, fm("dir-named"));
  write(`${tmp}/target/SKILL.md`, fm("target"));
  fs.mkdirSync(`${tmp}/linked`);
  fs.symlinkSync(`${tmp}/target/SKILL.md`, `${tmp}/linked/SKILL.md`);
  fs.symlinkSync(`${tmp}/target`, `${tmp}/linked/to-dir`);
  fs.symlinkSync(`${tmp}/nowhere`, `${tmp}/linked/dangling`);
  write(`${tmp}/bom/SKILL.md`, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(fm("bom"))]));
  write(`${tmp}/binary/SKILL.md`, Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 45, 45, 45]));
  write(`${tmp}/empty-file/SKILL.md`, "");
  fs.mkdirSync(`${tmp}/empty`);
  write(`${tmp}/ünïcödé ✓/SKILL.md`, fm("unicode"));
  write(`${tmp}/a-file`, "not a directory\n");
  return [
    ...[
      "small",
      "big",
      "unclosed",
      "exact",
      "lower",
      "both",
      "dir-named",
      "linked",
      "bom",
      "binary",
      "empty-file",
      "empty",
      "ünïcödé ✓",
      "missing",
      "a-file",
    ].map((name) => `${tmp}/${name}`),
  ];
}

describe("listDirs", () => {
  it("lists every edge case: missing, not a directory, heads cut, lower case, links, binary, empty, unicode", () => {
    const dirs = fixture();
    const js = list(dirs, {});
    const byName = Object.fromEntries(dirs.map((dir, i) => [path.basename(dir), js[i]!]));
    expect(byName.missing).toEqual({ error: "ENOENT" });
    expect(byName["a-file"]).toEqual({ error: "ENOTDIR" });
    expect(byName.small).toMatchObject({ headOf: "SKILL.md", partial: true });
    expect(byName.small?.entries).toEqual([
      ["SKILL.md", 1],
      ["scripts", 2],
    ]);
    // The head stops after the closing `---` line; `partial` says the body was not read.
    expect(byName.big).toMatchObject({ head: '---\nname: big\ndescription: "d: é ✓"\n---\n', partial: true });
    // Frontmatter not closed within the bytes read: no head, the scan reads the whole file.
    expect(byName.unclosed).toMatchObject({ headOf: "SKILL.md", head: undefined });
    expect(byName.exact).toMatchObject({ partial: true });
    expect(byName.lower).toMatchObject({ headOf: "skill.md" });
    expect(byName.both).toMatchObject({
      headOf: "SKILL.md",
      head: '---\nname: upper\ndescription: "d: é ✓"\n---\n',
    });
    expect(byName["dir-named"]).toMatchObject({ headOf: "skill.md" });
    expect(byName.linked).toEqual({
      entries: [
        ["SKILL.md", 3],
        ["dangling", 3],
        ["to-dir", 3],
      ],
      headOf: undefined,
      head: undefined,
      partial: undefined,
    });
    expect(byName.binary).toMatchObject({ headOf: "SKILL.md", partial: false });
    expect(byName["empty-file"]).toMatchObject({ headOf: "SKILL.md", head: "", partial: false });
    expect(byName.empty).toEqual({ entries: [], headOf: undefined, head: undefined, partial: undefined });
    expect(byName["ünïcödé ✓"]).toMatchObject({ headOf: "SKILL.md" });
  });

  it("reads the same head bytes as readSkillHead", () => {
    const dirs = fixture().filter(
      (dir) => !/missing|a-file|unclosed|empty$|linked|dir-named|lower/.test(dir),
    );
    const listed = list(dirs, {});
    dirs.forEach((dir, i) => {
      const head = readSkillHead(`${dir}/SKILL.md`);
      expect(listed[i]?.head, dir).toBe(Buffer.from(head.bytes).toString("utf8"));
      expect(listed[i]?.partial, dir).toBe(head.partial);
    });
  });

  it("lists many directories in order across chunks, with and without heads", () => {
    const dirs: string[] = [];
    for (let i = 0; i < 700; i++) {
      const dir = `${tmp}/many/s-${String(i).padStart(4, "0")}`;
      write(`${dir}/SKILL.md`, `---\nname: s-${i}\ndescription: skill ${i}\n---\nbody ${i}\n`);
      if (i % 7 === 0) fs.mkdirSync(`${dir}/sub-${i}`);
      dirs.push(dir);
    }
    dirs.splice(350, 0, `${tmp}/many/gone`);
    const listed = list(dirs, {});
    expect(listed).toHaveLength(701);
    expect(listed[350]).toEqual({ error: "ENOENT" });
    expect(listed[0]?.head).toBe("---\nname: s-0\ndescription: skill 0\n---\n");
    expect(listed[700]?.entries).toEqual([["SKILL.md", 1]]);
    expect(listed[7]?.entries).toEqual([
      ["SKILL.md", 1],
      ["sub-7", 2],
    ]);
    const headless = list(dirs, { heads: false });
    expect(headless.every((listing) => !("head" in listing) || listing.head === undefined)).toBe(true);
    expect(headless.map((listing) => ("entries" in listing ? listing.entries : listing))).toEqual(
      listed.map((listing) => ("entries" in listing ? listing.entries : listing)),
    );
  });

  it("stops when aborted, and a later call still works", () => {
    const dirs = Array.from({ length: 300 }, (_, i) => {
      fs.mkdirSync(`${tmp}/d${i}`);
      return `${tmp}/d${i}`;
    });
    const controller = new AbortController();
    let seen = 0;
    expect(() =>
      listDirs(dirs, { abortSignal: controller.signal }, () => {
        seen++;
        if (seen === 10) controller.abort(new Error("stop"));
      }),
    ).toThrow("stop");
    expect(seen).toBeLessThan(300);
    expect(list(dirs, {})).toHaveLength(300);
  });
});

describe("decodedHead / parserInput", () => {
  it("decodes valid UTF-8 once, and keeps the bytes of invalid UTF-8 for the parser to report", () => {
    const valid = Buffer.from("xx---\nname: a\ndescription: é ✓\n---\nyy");
    const head = decodedHead(valid, 2, valid.length - 2, true);
    expect(head.text).toBe("---\nname: a\ndescription: é ✓\n---\n");
    expect(parserInput(head, false)).toBe(head.text);
    // A literal U+FFFD is valid UTF-8: decoded through the byte path, still text.
    const replacement = Buffer.from("---\nname: a\ndescription: \uFFFD\n---\n");
    const literal = decodedHead(replacement, 0, replacement.length, false);
    expect(literal.text).toBeUndefined();
    expect(parserInput(literal, false)).toBe(replacement.toString("utf8"));
    // Invalid bytes stay bytes (the parser reports `encoding-invalid`).
    const invalid = Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]);
    const broken = decodedHead(invalid, 0, invalid.length, false);
    expect(parserInput(broken, false)).toEqual(invalid);
    // Strict mode keeps text with CR as bytes (it normalises line breaks only when it decodes).
    const crlf = Buffer.from("---\r\nname: a\r\n---\r\n");
    expect(parserInput(decodedHead(crlf, 0, crlf.length, false), true)).toEqual(crlf);
  });
});
