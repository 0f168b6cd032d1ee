import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace } from "./create-workspace.js";
import type { Workspace } from "./workspace.js";
import {
  collectWorkspaceFiles,
  DEFAULT_WORKSPACE_FILE_LIMITS,
  fileDigest,
  restoreWorkspaceFiles,
  type WorkspaceFile,
} from "./workspace-files.js";

let base: string;
let ws: Workspace;
let fresh: Workspace;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-wsfiles-"));
  ws = await createWorkspace({ baseDir: base });
  fresh = await createWorkspace({ baseDir: base });
});
afterEach(async () => {
  await ws.dispose();
  await fresh.dispose();
  await rm(base, { recursive: true, force: true });
});

describe("collectWorkspaceFiles", () => {
  it("keeps the regular files of work/ (with inputs) and out/, not skills/, runs/, home/ or tmp/", async () => {
    await writeFile(path.join(ws.outDir, "report.txt"), "the report");
    await mkdir(path.join(ws.outDir, "charts", "2026"), { recursive: true });
    await writeFile(path.join(ws.outDir, "charts", "2026", "a.csv"), "x,y\n");
    await writeFile(path.join(ws.inputsDir, "upload.csv"), "the report"); // same content as report.txt
    await writeFile(path.join(ws.workDir, "run.sh"), "#!/bin/sh\necho hi\n");
    await chmod(path.join(ws.workDir, "run.sh"), 0o755);
    await writeFile(path.join(ws.homeDir, ".history"), "secret-ish");
    await writeFile(path.join(ws.tmpDir, "scratch"), "tmp");
    await writeFile(path.join(await ws.createRunDir(), "log"), "run log");
    const collected = await collectWorkspaceFiles(ws.root);
    expect(collected.files.map((f) => f.path)).toEqual([
      "work/inputs/upload.csv",
      "work/run.sh",
      "out/charts/2026/a.csv",
      "out/report.txt",
    ]);
    expect(collected.files.find((f) => f.path === "work/run.sh")?.mode).toBe(0o755);
    expect(collected.files.find((f) => f.path === "out/report.txt")).toMatchObject({
      digest: fileDigest(new TextEncoder().encode("the report")),
      size: 10,
      mode: 0o644,
    });
    // Two files with the same content: one blob.
    expect(collected.contents.size).toBe(3);
    expect(collected.notKept).toEqual([]);
  });

  it("leaves out symlinks and FIFOs (never following them) and says so", async () => {
    const outside = path.join(base, "outside.txt");
    await writeFile(outside, "host file");
    await symlink(outside, path.join(ws.outDir, "link.txt"));
    await symlink(base, path.join(ws.workDir, "dirlink"));
    execFileSync("mkfifo", [path.join(ws.outDir, "pipe")]);
    const collected = await collectWorkspaceFiles(ws.root);
    expect(collected.files).toEqual([]);
    expect(collected.notKept).toEqual([
      { path: "work/dirlink", reason: "a symlink; only regular files are kept" },
      { path: "out/link.txt", reason: "a symlink; only regular files are kept" },
      {
        path: "out/pipe",
        reason: "not a regular file (a FIFO, socket or device); only regular files are kept",
      },
    ]);
  });

  it("applies the per-file, per-conversation and file-count caps, naming the file and the cap", async () => {
    await writeFile(path.join(ws.outDir, "a.bin"), Buffer.alloc(400, 1));
    await writeFile(path.join(ws.outDir, "b-big.bin"), Buffer.alloc(2000, 2));
    await writeFile(path.join(ws.outDir, "c.bin"), Buffer.alloc(500, 3));
    await writeFile(path.join(ws.outDir, "d.bin"), Buffer.alloc(300, 4));
    await writeFile(path.join(ws.outDir, "e.bin"), Buffer.alloc(10, 5));
    await writeFile(path.join(ws.outDir, "f.bin"), Buffer.alloc(10, 6));
    const collected = await collectWorkspaceFiles(ws.root, {
      maxFileBytes: 1024,
      maxTotalBytes: 1000,
      maxFiles: 3,
    });
    // Past a cap, the files after it are still kept while they fit.
    expect(collected.files.map((f) => f.path)).toEqual(["out/a.bin", "out/c.bin", "out/e.bin"]);
    expect(collected.notKept).toEqual([
      { path: "out/b-big.bin", reason: "2 KiB is over the per-file cap of 1 KiB" },
      {
        path: "out/d.bin",
        reason: "300 B would take the conversation past its cap of 1000 B (900 B kept already)",
      },
      { path: "out/f.bin", reason: "over the cap of 3 files a conversation" },
    ]);
    expect(DEFAULT_WORKSPACE_FILE_LIMITS).toEqual({
      maxFileBytes: 16 * 1024 ** 2,
      maxTotalBytes: 64 * 1024 ** 2,
      maxFiles: 1000,
    });
  });
});

describe("many files left out", () => {
  it("are named up to 20, the rest counted", async () => {
    for (let i = 0; i < 30; i++) await writeFile(path.join(ws.outDir, `f${String(i).padStart(2, "0")}`), "x");
    const collected = await collectWorkspaceFiles(ws.root, { ...DEFAULT_WORKSPACE_FILE_LIMITS, maxFiles: 5 });
    expect(collected.files).toHaveLength(5);
    expect(collected.notKept).toHaveLength(21);
    expect(collected.notKept[0]).toEqual({
      path: "out/f05",
      reason: "over the cap of 5 files a conversation",
    });
    expect(collected.notKept.at(-1)).toEqual({ path: "…", reason: "and 5 more files not kept" });
  });
});

describe("files known unchanged", () => {
  it("are not read again; a file written since (same size) is", async () => {
    await writeFile(path.join(ws.outDir, "same.txt"), "unchanged");
    await writeFile(path.join(ws.outDir, "edited.txt"), "version 1");
    const first = await collectWorkspaceFiles(ws.root);
    expect(first.contents.size).toBe(2);
    await writeFile(path.join(ws.outDir, "edited.txt"), "version 2");
    const second = await collectWorkspaceFiles(ws.root, DEFAULT_WORKSPACE_FILE_LIMITS, first.known);
    expect(second.files.map((f) => [f.path, f.digest])).toEqual([
      ["out/edited.txt", fileDigest(new TextEncoder().encode("version 2"))],
      ["out/same.txt", fileDigest(new TextEncoder().encode("unchanged"))],
    ]);
    // Only the edited file was read.
    expect([...second.contents.keys()]).toEqual([fileDigest(new TextEncoder().encode("version 2"))]);
  });

  it("include the files a restore wrote", async () => {
    const bytes = new TextEncoder().encode("restored");
    const digest = fileDigest(bytes);
    const known = new Map();
    const problems = await restoreWorkspaceFiles(
      fresh.root,
      [{ path: "out/r.txt", digest, size: bytes.length, mode: 0o644 }],
      async () => bytes,
      known,
    );
    expect(problems).toEqual([]);
    const collected = await collectWorkspaceFiles(fresh.root, DEFAULT_WORKSPACE_FILE_LIMITS, known);
    expect(collected.files.map((f) => f.digest)).toEqual([digest]);
    expect(collected.contents.size).toBe(0);
  });
});

describe("restoreWorkspaceFiles", () => {
  const content = (text: string) => new TextEncoder().encode(text);
  const entry = (p: string, text: string, mode = 0o644): WorkspaceFile => ({
    path: p,
    digest: fileDigest(content(text)),
    size: content(text).length,
    mode,
  });
  const blobs = new Map<string, Uint8Array>();
  const read = async (digest: string) => blobs.get(digest);
  for (const text of ["kept", "#!/bin/sh\n", "nested"]) blobs.set(fileDigest(content(text)), content(text));

  it("writes the files back (folders, modes) into a fresh workspace", async () => {
    const problems = await restoreWorkspaceFiles(
      fresh.root,
      [
        entry("out/keep.txt", "kept"),
        entry("work/bin/tool.sh", "#!/bin/sh\n", 0o755),
        entry("out/a/b/c.txt", "nested"),
      ],
      read,
    );
    expect(problems).toEqual([]);
    expect(await readFile(path.join(fresh.outDir, "keep.txt"), "utf8")).toBe("kept");
    expect(await readFile(path.join(fresh.outDir, "a", "b", "c.txt"), "utf8")).toBe("nested");
    expect((await stat(path.join(fresh.workDir, "bin", "tool.sh"))).mode & 0o777).toBe(0o755);
  });

  it("refuses names outside work/ and out/, content that does not match its digest, and missing blobs", async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), "skillrt-wsfiles-outside-"));
    try {
      const forged = { ...entry("out/forged.txt", "kept"), digest: fileDigest(content("other")) };
      blobs.set(forged.digest, content("not other"));
      const problems = await restoreWorkspaceFiles(
        fresh.root,
        [
          entry("../escape.txt", "kept"),
          entry("out/../../escape.txt", "kept"),
          entry(`${outside}/abs.txt`, "kept"),
          entry("home/.bashrc", "kept"),
          entry("out", "kept"),
          forged,
          entry("out/gone.txt", "never stored"),
        ],
        read,
      );
      expect(problems).toEqual([
        { path: "../escape.txt", reason: "not restored: not under work/ or out/" },
        { path: "out/../../escape.txt", reason: "not restored: not a plain relative path" },
        { path: `${outside}/abs.txt`, reason: "not restored: not under work/ or out/" },
        { path: "home/.bashrc", reason: "not restored: not under work/ or out/" },
        { path: "out", reason: "not restored: not under work/ or out/" },
        {
          path: "out/forged.txt",
          reason: "not restored: its content in the store does not match its digest",
        },
        { path: "out/gone.txt", reason: "not restored: the store no longer holds its content" },
      ]);
      expect(await readdir(outside)).toEqual([]);
      expect(await readdir(fresh.outDir)).toEqual([]);
      expect(await readdir(path.dirname(fresh.root))).not.toContain("escape.txt");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("never follows a symlink planted in the workspace: the write fails, nothing lands outside", async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), "skillrt-wsfiles-outside-"));
    try {
      await rm(fresh.outDir, { recursive: true });
      await symlink(outside, fresh.outDir);
      await mkdir(path.join(fresh.workDir, "sub"));
      await symlink(path.join(outside, "target.txt"), path.join(fresh.workDir, "sub", "file.txt"));
      const problems = await restoreWorkspaceFiles(
        fresh.root,
        [entry("out/keep.txt", "kept"), entry("work/sub/file.txt", "kept")],
        read,
      );
      expect(problems.map((p) => p.path)).toEqual(["out/keep.txt"]);
      expect(problems[0]?.reason).toMatch(/^not restored: out is not a directory/);
      // The link at the file's own name was replaced by the file, never written through.
      expect(await readdir(outside)).toEqual([]);
      expect(await readFile(path.join(fresh.workDir, "sub", "file.txt"), "utf8")).toBe("kept");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
