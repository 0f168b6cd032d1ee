import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "./__fixtures__/make-skill.js";
import { createFsArtifactStore } from "./artifact-store.js";
import { collectOutputs } from "./collect-outputs.js";
import { createWorkspace } from "./create-workspace.js";
import { OutputSpec } from "./output-spec.js";
import type { Workspace } from "./workspace.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);

describe("collectOutputs", () => {
  let base: string;
  let ws: Workspace;
  beforeEach(async () => {
    base = await makeTempDir();
    ws = await createWorkspace({ baseDir: base });
    await mkdir(path.join(ws.outDir, "deep", "er"), { recursive: true });
    await writeFile(path.join(ws.outDir, "a.txt"), "alpha\n");
    await writeFile(path.join(ws.outDir, "b.json"), '{"b":1}\n');
    await writeFile(path.join(ws.outDir, "deep", "er", "c.md"), "# c\n");
    await writeFile(path.join(ws.outDir, "chart.png"), PNG);
    await writeFile(path.join(ws.workDir, "scratch.csv"), "x,y\n");
  });
  afterEach(async () => {
    await ws.dispose();
    await rm(base, { recursive: true, force: true });
  });
  const collect = (spec: unknown) => collectOutputs(OutputSpec.parse(spec), { root: ws.root });

  it("matches globs with ** and $OUTPUT_DIR, sniffs MIME, inlines only text", async () => {
    const r = await collect({ globs: ["$OUTPUT_DIR/**", "work/*.csv"], inline: true });
    expect(r.files.map((f) => [f.name, f.mimeType])).toEqual([
      ["out/a.txt", "text/plain"],
      ["out/b.json", "application/json"],
      ["out/chart.png", "image/png"],
      ["out/deep/er/c.md", "text/markdown"],
      ["work/scratch.csv", "text/csv"],
    ]);
    expect(r.files.find((f) => f.name === "out/a.txt")?.content).toBe("alpha\n");
    const png = r.files.find((f) => f.name === "out/chart.png");
    expect(png?.content).toBeUndefined();
    expect(png?.size).toBe(PNG.length);
    expect(png?.ref).toBe("workspace://out/chart.png");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: literal ${…} placeholder syntax under test
    expect((await collect({ globs: ["${OUTPUT_DIR}/deep/**/*.md"] })).files.map((f) => f.name)).toEqual([
      "out/deep/er/c.md",
    ]);
    expect((await collect({ globs: ["out/a.txt"] })).files[0]?.content).toBeUndefined();
  });

  it("applies max_files, max_file_bytes and max_total_bytes and reports limits_hit", async () => {
    const few = await collect({ globs: ["out/**"], max_files: 2 });
    expect(few.files).toHaveLength(2);
    expect(few.limitsHit).toEqual(["max_files"]);
    const cut = await collect({ globs: ["out/a.txt"], max_file_bytes: 3, inline: true });
    expect(cut.files[0]).toMatchObject({ truncated: true, size: 6, content: "alp" });
    expect(cut.limitsHit).toEqual(["max_file_bytes"]);
    const total = await collect({ globs: ["out/*.txt", "out/*.json"], max_total_bytes: 10 });
    expect(total.files.map((f) => f.name)).toEqual(["out/a.txt"]);
    expect(total.limitsHit).toEqual(["max_total_bytes"]);
    expect((await collect({ globs: ["out/**"] })).limitsHit).toEqual([]);
  });

  it("drops a symlink from out/ to a file outside the workspace, keeps one inside", async () => {
    const outside = path.join(base, "outside-secret.txt");
    await writeFile(outside, "outside\n");
    await symlink(outside, path.join(ws.outDir, "escape.txt"));
    await symlink(path.join(ws.workDir, "scratch.csv"), path.join(ws.outDir, "inside.csv"));
    await symlink(path.join(base, "missing"), path.join(ws.outDir, "broken.txt"));
    const r = await collect({ globs: ["out/*"], inline: true });
    const names = r.files.map((f) => f.name);
    expect(names).not.toContain("out/escape.txt");
    expect(names).not.toContain("out/broken.txt");
    expect(names).toContain("out/inside.csv");
    expect(JSON.stringify(r)).not.toContain("outside\\n");
    expect(r.warnings.join("\n")).toContain("escape.txt");
  });

  it("refuses globs that climb out of the workspace", async () => {
    const r = await collect({ globs: ["../**", "/etc/*"] });
    expect(r.files).toEqual([]);
    expect(r.warnings).toHaveLength(2);
  });

  it("saves outputs as versioned artifacts (v1, v2) and reads them back", async () => {
    const store = createFsArtifactStore(path.join(base, "artifacts"));
    const first = await collectOutputs(
      OutputSpec.parse({ globs: ["out/a.txt"], save: true, name_template: "run/" }),
      {
        root: ws.root,
        artifactStore: store,
      },
    );
    expect(first.files[0]?.artifact).toEqual({ name: "run/out/a.txt", version: 1 });
    await writeFile(path.join(ws.outDir, "a.txt"), "alpha two\n");
    const second = await collectOutputs(
      OutputSpec.parse({ globs: ["out/a.txt"], save: true, nameTemplate: "run/" }),
      {
        root: ws.root,
        artifactStore: store,
      },
    );
    expect(second.files[0]?.artifact).toEqual({ name: "run/out/a.txt", version: 2 });
    expect(Buffer.from((await store.get("run/out/a.txt", 1))!.bytes).toString()).toBe("alpha\n");
    expect(Buffer.from((await store.get("run/out/a.txt"))!.bytes).toString()).toBe("alpha two\n");
    expect(await store.versions("run/out/a.txt")).toEqual([1, 2]);
    expect(await store.get("nope")).toBeUndefined();
  });
});
