import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../__fixtures__/run-cli.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await makeTempDir();
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
  await writeSkill(
    path.join(tmp.dir, "skills"),
    "pdf-tools",
    fm("pdf-tools", "Work with PDFs."),
    "# PDF tools\n\nRun the script.\n",
    {
      "references/api.md": `${lines}\n`,
      "assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
    },
  );
});
afterEach(async () => {
  await tmp.cleanup();
});

const show = (args: string[]) => runCli(["show", ...args], { cwd: tmp.dir });

describe("skillrt show", () => {
  it("prints the body of a skill", async () => {
    const { code, out } = await show(["pdf-tools"]);
    expect(code).toBe(0);
    expect(out).toBe("# PDF tools\n\nRun the script.\n");
  });

  it("prints the body as JSON with its location", async () => {
    const { code, out } = await show(["pdf-tools", "--json"]);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["name", "location", "dir", "bodyLine", "body"]);
    expect(parsed["location"]).toBe(path.join(tmp.dir, "skills", "pdf-tools", "SKILL.md"));
    expect(parsed["bodyLine"]).toBe(6);
  });

  it("prints one file, or a line range of it", async () => {
    const whole = await show(["pdf-tools", "references/api.md"]);
    expect(whole.out.split("\n")).toHaveLength(31);
    const part = await show(["pdf-tools", "references/api.md", "--lines", "10-12"]);
    expect(part.code).toBe(0);
    expect(part.out).toBe("line 10\nline 11\nline 12\n");
  });

  it("describes a binary file instead of printing it", async () => {
    const { code, out } = await show(["pdf-tools", "assets/logo.png"]);
    expect(code).toBe(0);
    expect(out).toBe("assets/logo.png: binary file, 12 bytes, image/png\n");
  });

  it("suggests the closest names for an unknown skill (exit 1)", async () => {
    const { code, out, err } = await show(["pdf-tool"]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toBe("skillrt show: no skill named 'pdf-tool'. Did you mean: pdf-tools?\n");
  });

  it("lists the files when a file is missing, and refuses paths outside the skill (exit 1)", async () => {
    const missing = await show(["pdf-tools", "references/nope.md"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("references/api.md");
    const outside = await show(["pdf-tools", "../../etc/passwd"]);
    expect(outside.code).toBe(1);
    expect(outside.out).toBe("");
  });

  it("reads a negative --lines value as the value: '--lines -2' is lines 1 to 2", async () => {
    expect(await show(["pdf-tools", "references/api.md", "--lines", "-2"])).toMatchObject({
      code: 0,
      out: "line 1\nline 2\n",
    });
    const typo = await show(["pdf-tools", "--jsn"]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("unknown option '--jsn'. Did you mean --json?");
  });

  it("falls back to the one path differing only in case; several are listed (exit 1)", async () => {
    const found = await show(["pdf-tools", "REFERENCES/API.md", "--lines", "2-2"]);
    expect(found).toMatchObject({ code: 0, out: "line 2\n" });
    const dir = path.join(tmp.dir, "skills", "pdf-tools");
    await fs.writeFile(path.join(dir, "Notes.md"), "upper\n");
    await fs.writeFile(path.join(dir, "notes.md"), "lower\n");
    expect((await show(["pdf-tools", "notes.md"])).out).toBe("lower\n");
    const ambiguous = await show(["pdf-tools", "NOTES.md"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toBe(
      "skillrt show: no file 'NOTES.md' in skill 'pdf-tools'; these differ from it only in letter case: " +
        "Notes.md, notes.md. Name one of them exactly.\n",
    );
  });

  it("never reads a huge SKILL.md or reference whole: a clear error, exit 1", async () => {
    const big = path.join(tmp.dir, "skills", "big");
    await fs.mkdir(big);
    // Sparse files: 1 GiB on paper, nothing on disk. Reading either whole would take seconds and 1 GiB.
    await fs.writeFile(path.join(big, "SKILL.md"), fm("big", "Huge."));
    await fs.truncate(path.join(big, "SKILL.md"), 1024 ** 3);
    const shown = await show(["big"]);
    expect(shown.code).toBe(1);
    expect(shown.err).toContain("no skill named 'big'");
    const huge = path.join(tmp.dir, "skills", "pdf-tools", "references", "huge.md");
    await fs.writeFile(huge, "a line of text\n".repeat(1_200_000)); // 18 MB of text
    const read = await show(["pdf-tools", "references/huge.md"]);
    expect(read.code).toBe(1);
    expect(read.err).toContain("over the 16777216-byte limit");
  });

  it("rejects a malformed --lines (exit 2)", async () => {
    const { code, err } = await show(["pdf-tools", "references/api.md", "--lines", "9-3"]);
    expect(code).toBe(2);
    expect(err).toContain("--lines expects");
  });

  it("fails for a missing --root (exit 1), naming it, and still shows a skill another root holds", async () => {
    const missing = `skillrt show: Skill root ${path.join(tmp.dir, "nope")} does not exist. Create it or fix the path.\n`;
    const alone = await show(["pdf-tools", "--root", "nope"]);
    expect(alone.code).toBe(1);
    expect(alone.err.startsWith(missing)).toBe(true);
    expect(alone.err).toContain("no skill named 'pdf-tools'");
    const both = await show(["pdf-tools", "--root", "skills", "--root", "nope"]);
    expect(both.code).toBe(1);
    expect(both.err).toBe(missing);
    expect(both.out).toContain("# PDF tools");
  });
});
