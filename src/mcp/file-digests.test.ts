import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileDigests } from "./file-digests.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-digests-")));
  dirs.push(dir);
  return dir;
}

const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

describe("createFileDigests with a cache directory", () => {
  it("keeps digests and sizes across processes: an unchanged file is not read again, a changed one is", async () => {
    const dir = await tempDir();
    const cacheDir = path.join(dir, "cache");
    const file = path.join(dir, "SKILL.md");
    await fs.writeFile(file, "hello\n");
    // Settled: written well before it is hashed (a file changed within the clock's grain is hashed again).
    const past = new Date(Date.now() - 60_000);
    await fs.utimes(file, past, past);

    const first = createFileDigests({ cacheDir });
    expect(await first.digest(file)).toEqual({ digest: sha("hello\n"), size: 6 });
    first.flush();
    const saved = JSON.parse(await fs.readFile(path.join(cacheDir, "mcp-digests-v2.json"), "utf8"));
    expect(saved.files).toHaveLength(1);

    // A later process answers from the file without reading the skill file: shown by a row whose digest
    // no bytes have (the file's identity is unchanged, so the row is believed).
    const forged = `sha256:${"ab".repeat(32)}`;
    saved.files[0][7] = forged;
    // Hashed long after its last change (the test's utimes just set its ctime to now).
    saved.files[0][6] = Date.now() + 5000;
    await fs.writeFile(path.join(cacheDir, "mcp-digests-v2.json"), JSON.stringify(saved), { mode: 0o600 });
    const second = createFileDigests({ cacheDir });
    expect(await second.digest(file)).toEqual({ digest: forged, size: 6 });

    // Edited since: its identity differs, so it is hashed anew.
    await fs.writeFile(file, "hello, again\n");
    expect(await second.digest(file)).toEqual({ digest: sha("hello, again\n"), size: 13 });
  });

  it("starts empty from a malformed cache file, and keeps nothing without a cache directory", async () => {
    const dir = await tempDir();
    const cacheDir = path.join(dir, "cache");
    await fs.mkdir(cacheDir, { mode: 0o700 });
    await fs.writeFile(path.join(cacheDir, "mcp-digests-v2.json"), "{not json", { mode: 0o600 });
    const file = path.join(dir, "a.txt");
    await fs.writeFile(file, "x");
    expect(await createFileDigests({ cacheDir }).digest(file)).toEqual({ digest: sha("x"), size: 1 });
    const memory = createFileDigests();
    await memory.digest(file);
    memory.flush();
    expect(await fs.readFile(path.join(cacheDir, "mcp-digests-v2.json"), "utf8")).toBe("{not json");
  });
});
