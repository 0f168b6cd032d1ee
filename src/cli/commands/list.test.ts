import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../__fixtures__/capture-io.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";
import { main } from "../main.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;
beforeEach(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp.dir, "skills");
  await writeSkill(root, "pdf", fm("pdf", "Fill and read PDF forms."), "# PDF\n", {
    "scripts/fill.py": "print(1)\n",
  });
  await writeSkill(
    root,
    "zeta",
    fm("zeta", "A very long description that goes on and on about what the zeta skill does in great detail."),
  );
  await writeSkill(
    root,
    "quiet",
    fm("quiet", "Hidden from the model.", "disable-model-invocation: true\nlicense: MIT"),
  );
});
afterEach(async () => {
  await tmp.cleanup();
});

describe("skillrt list", () => {
  it("prints every skill as stable JSON with --json", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--root", "skills", "--json"], io)).toBe(0);
    const out = io.out();
    expect(out.endsWith("}\n")).toBe(true);
    expect(out.split("\n")).toHaveLength(2); // piped: one compact line

    const parsed = JSON.parse(out) as { skills: Record<string, unknown>[]; diagnostics: unknown[] };
    expect(parsed.skills.map((s) => s["name"])).toEqual(["pdf", "quiet", "zeta"]);
    const pdf = parsed.skills[0] ?? {};
    expect(Object.keys(pdf)).toEqual([
      "name",
      "description",
      "location",
      "scope",
      "source",
      "dir",
      "extras",
      "disableModelInvocation",
      "userInvocable",
      "active",
      "warnings",
    ]);
    expect(pdf).toMatchObject({
      description: "Fill and read PDF forms.",
      location: path.join(root, "pdf", "SKILL.md"),
      dir: path.join(root, "pdf"),
      scope: "root",
      source: root,
      disableModelInvocation: false,
      userInvocable: true,
      active: false,
      warnings: 0,
    });
    expect(parsed.skills[1]).toMatchObject({ name: "quiet", license: "MIT", disableModelInvocation: true });
    expect(parsed.diagnostics).toEqual([]);
  });

  it("prints aligned name/description lines, truncated to the terminal width", async () => {
    const io = captureIo({ cwd: tmp.dir, tty: true, columns: 40 });
    expect(await main(["list", "--root", root], io)).toBe(0);
    const lines = io.out().trimEnd().split("\n");
    expect(lines[0]).toBe("pdf    Fill and read PDF forms.");
    expect(lines[1]).toBe("quiet  Hidden from the model.");
    expect(lines[2]).toMatch(/^zeta {3}A very long description that goe…$/);
    expect([...(lines[2] ?? "")].length).toBe(40);
  });

  it("does not truncate when piped", async () => {
    const io = captureIo({ cwd: tmp.dir });
    await main(["list", "--root", root], io);
    expect(io.out()).toContain("in great detail.");
  });

  it("uses the default project roots under the cwd", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--json"], io)).toBe(0);
    const parsed = JSON.parse(io.out()) as { skills: { name: string; scope: string }[] };
    expect(parsed.skills.map((s) => [s.name, s.scope])).toEqual([
      ["pdf", "project"],
      ["quiet", "project"],
      ["zeta", "project"],
    ]);
  });

  it("fails for a missing --root and summarises scan problems on stderr", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--root", "missing-root"], io)).toBe(1);
    expect(io.out()).toBe("");
    expect(io.err()).toContain("No skills found");
    expect(io.err()).toContain("path-not-found");
    expect(io.err()).toMatch(/1 error while scanning/);
  });

  it("rejects stray arguments (exit 2)", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "extra"], io)).toBe(2);
    expect(io.err()).toContain("Run 'skillrt list --help' for usage.");
  });
});
