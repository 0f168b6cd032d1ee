import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_BYTES, openTokenCountFile } from "./token-count-file.js";
import { createTokenCounter } from "./token-counter.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-token-counts-"));
  fs.chmodSync(dir, 0o700);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = () => path.join(dir, "token-counts-o200k_base.txt");
const texts = ["hello world", "Available skills:\n- pdf: Extract text from PDF files.\n", "ü".repeat(300)];

describe("openTokenCountFile", () => {
  it("keeps counts for the next process: exact, hashed (no text in the file), read before the tokenizer", () => {
    const written = openTokenCountFile(dir, "o200k_base");
    const first = createTokenCounter({ counts: written });
    const exact = createTokenCounter();
    const counted = texts.map((t) => first.count(t));
    expect(counted).toEqual(texts.map((t) => exact.count(t)));
    written.flush();
    const kept = fs.readFileSync(file(), "utf8");
    expect(kept.trim().split("\n")).toHaveLength(texts.length);
    for (const t of texts) expect(kept).not.toContain(t.slice(0, 5));

    const counts = openTokenCountFile(dir, "o200k_base");
    const again = createTokenCounter({ counts });
    expect(texts.map((t) => again.count(t))).toEqual(counted);
  });

  it("answers from the file: a count recorded there is what the counter returns", () => {
    const writer = openTokenCountFile(dir, "o200k_base");
    writer.add("hello world", 4242);
    writer.flush();
    const content = fs.readFileSync(file(), "utf8");
    expect(content).toMatch(/^[A-Za-z0-9_-]{16} 4242\n$/);
    expect(content).not.toContain("hello");
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    const counter = createTokenCounter({ counts: openTokenCountFile(dir, "o200k_base") });
    expect(counter.count("hello world")).toBe(4242);
    // Another encoding has its own file.
    expect(createTokenCounter({ counts: openTokenCountFile(dir, "cl100k_base") }).count("hello world")).toBe(
      2,
    );
  });

  it("ignores malformed lines and appends new counts", () => {
    fs.writeFileSync(file(), "garbage\nAAAAAAAAAAAAAAAA x\n\n", { mode: 0o600 });
    const counts = openTokenCountFile(dir, "o200k_base");
    expect(counts.get("hello world")).toBeUndefined();
    counts.add("hello world", 2);
    counts.flush();
    expect(fs.readFileSync(file(), "utf8")).toMatch(/^garbage\nAAAAAAAAAAAAAAAA x\n\n[A-Za-z0-9_-]{16} 2\n$/);
    expect(openTokenCountFile(dir, "o200k_base").get("hello world")).toBe(2);
  });

  it("is not trusted in a directory others can write, and follows no symlink planted at its name", () => {
    const writer = openTokenCountFile(dir, "o200k_base");
    writer.add("hello world", 4242);
    writer.flush();
    fs.chmodSync(dir, 0o777);
    expect(openTokenCountFile(dir, "o200k_base").get("hello world")).toBeUndefined();
    const refused = openTokenCountFile(dir, "o200k_base");
    refused.add("other", 1);
    refused.flush();
    expect(fs.readFileSync(file(), "utf8")).not.toMatch(/ 1\n/);

    fs.chmodSync(dir, 0o700);
    const target = path.join(dir, "elsewhere.txt");
    fs.writeFileSync(target, "", { mode: 0o600 });
    fs.rmSync(file());
    fs.symlinkSync(target, file());
    const planted = openTokenCountFile(dir, "o200k_base");
    expect(planted.get("hello world")).toBeUndefined();
    planted.add("hello world", 4242);
    planted.flush();
    expect(fs.readFileSync(target, "utf8")).toBe("");
  });

  it("starts over past its size instead of growing without end", () => {
    fs.writeFileSync(file(), `${"x".repeat(MAX_BYTES)}\n`, { mode: 0o600 });
    const counts = openTokenCountFile(dir, "o200k_base");
    expect(counts.get("hello world")).toBeUndefined();
    counts.add("hello world", 2);
    counts.flush();
    expect(fs.readFileSync(file(), "utf8")).toMatch(/^[A-Za-z0-9_-]{16} 2\n$/);
  });

  it("writes a burst of new counts on its own once the burst is over", async () => {
    const counter = createTokenCounter({ counts: openTokenCountFile(dir, "o200k_base") });
    for (const t of texts) counter.count(t);
    expect(fs.existsSync(file())).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fs.readFileSync(file(), "utf8").trim().split("\n")).toHaveLength(texts.length);
  });
});
