import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RootDigestError } from "../errors/root-digest-error.js";
import { digestRoot, MAX_DIGEST_ENTRIES } from "./root-digest.js";

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-digest-"));
  root = path.join(base, "skills");
  await mkdir(path.join(root, "a", "node_modules", "x"), { recursive: true });
  await writeFile(path.join(root, "a", "SKILL.md"), "---\nname: a\ndescription: d\n---\n");
  await writeFile(path.join(root, "a", "node_modules", "x", "index.js"), "module.exports = 1;\n");
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe("digestRoot covers every file a run can see", () => {
  it("an edit under node_modules/ changes the digest", async () => {
    const before = await digestRoot(root);
    await writeFile(path.join(root, "a", "node_modules", "x", "index.js"), "module.exports = 2;\n");
    expect(await digestRoot(root)).not.toBe(before);
  });

  it("a skill's own .git/ counts; a non-skill root's top-level .git/ does not (no run sees it)", async () => {
    await mkdir(path.join(root, "a", ".git"), { recursive: true });
    const before = await digestRoot(root);
    await writeFile(path.join(root, "a", ".git", "hooks"), "planted\n");
    const skillGit = await digestRoot(root);
    expect(skillGit).not.toBe(before);
    await mkdir(path.join(root, ".git"));
    await writeFile(path.join(root, ".git", "index"), "bookkeeping\n");
    expect(await digestRoot(root)).toBe(skillGit);
    // A root that is itself a skill: its top-level .git is in the folder a run sees.
    const skill = path.join(root, "a");
    const asRoot = await digestRoot(skill);
    await writeFile(path.join(skill, ".git", "hooks"), "changed\n");
    expect(await digestRoot(skill)).not.toBe(asRoot);
  });

  it("a folder reached through a link that leaves the root is covered; a loop is cut", async () => {
    const outside = path.join(base, "elsewhere");
    await mkdir(outside);
    await writeFile(path.join(outside, "SKILL.md"), "---\nname: b\ndescription: d\n---\n");
    await symlink(outside, path.join(root, "b"));
    await symlink(base, path.join(outside, "up"));
    const before = await digestRoot(root);
    await writeFile(path.join(outside, "run.sh"), "echo changed\n");
    expect(await digestRoot(root)).not.toBe(before);
  });

  it("a link into /proc, /sys or /dev is hashed as a link, never walked (a read there can block)", async () => {
    await symlink("/proc", path.join(root, "p"));
    await symlink("/dev", path.join(root, "d"));
    const digest = await digestRoot(root);
    expect(digest).toMatch(/^sha256:/);
    expect(await digestRoot(root)).toBe(digest);
  });

  it("hashing a copy in place of a folder gives the root's digest when the copy is the same", async () => {
    const digest = await digestRoot(root);
    const copy = path.join(base, "copy");
    await mkdir(path.join(copy, "node_modules", "x"), { recursive: true });
    await writeFile(path.join(copy, "SKILL.md"), "---\nname: a\ndescription: d\n---\n");
    await writeFile(path.join(copy, "node_modules", "x", "index.js"), "module.exports = 1;\n");
    expect(await digestRoot(root, { substitute: { rel: "a", dir: copy } })).toBe(digest);
    await chmod(path.join(copy, "SKILL.md"), 0o755);
    expect(await digestRoot(root, { substitute: { rel: "a", dir: copy } })).not.toBe(digest);
  });

  it("a root past the entry or byte cap is refused with a message that says what to do", async () => {
    const modules = path.join(root, "a", "node_modules", "big");
    await mkdir(modules, { recursive: true });
    for (let i = 0; i < 60; i++) await writeFile(path.join(modules, `f${i}.js`), "x".repeat(1024));
    const error = await digestRoot(root, { maxEntries: 50 }).catch((e: unknown) => e);
    expect(RootDigestError.isInstance(error)).toBe(true);
    expect((error as RootDigestError).reason).toBe("entries");
    expect((error as Error).message).toContain(`${root} holds more than 50 files and folders`);
    expect((error as Error).message).toContain("node_modules/ included");
    expect((error as Error).message).toContain("--trust");
    const bytes = await digestRoot(root, { maxBytes: 1024 * 1024 * 0.04 }).catch((e: unknown) => e);
    expect((bytes as RootDigestError).reason).toBe("bytes");
    // The defaults: 20,000 entries and 512 MiB.
    expect(MAX_DIGEST_ENTRIES).toBe(20_000);
    expect(await digestRoot(root)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
