import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../__fixtures__/capture-io.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";
import { main } from "../main.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await makeTempDir();
  const root = path.join(tmp.dir, "skills");
  await writeSkill(root, "pdf-forms", fm("pdf-forms", "Fill PDF forms and extract PDF fields."));
  await writeSkill(root, "csv-report", fm("csv-report", "Summarise CSV files into a report."));
  await writeSkill(
    root,
    "slides",
    fm("slides", "Build slide decks.", "when_to_use: presentations, also from PDF handouts"),
  );
});
afterEach(async () => {
  await tmp.cleanup();
});

describe("skillrt search", () => {
  it("ranks matching skills with scores as JSON", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["search", "pdf", "forms", "--json"], io)).toBe(0);
    const parsed = JSON.parse(io.out()) as { results: { name: string; score: number; location: string }[] };
    expect(parsed.results[0]?.name).toBe("pdf-forms");
    expect(Object.keys(parsed.results[0] ?? {})).toEqual(["name", "description", "location", "score"]);
    expect(parsed.results.map((r) => r.name)).not.toContain("csv-report");
    const scores = parsed.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("prints score, name and description lines and honours --limit", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["search", "pdf", "--limit", "1"], io)).toBe(0);
    const lines = io.out().trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d+\.\d\d {2}pdf-forms {2}Fill PDF forms and extract PDF fields\.$/);
  });

  it("says so on stderr when nothing matches (exit 0)", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["search", "kubernetes"], io)).toBe(0);
    expect(io.out()).toBe("");
    expect(io.err()).toBe("No skills match 'kubernetes'.\n");
  });

  it("rejects a bad --limit and a missing query (exit 2)", async () => {
    for (const argv of [["search", "pdf", "--limit", "0"], ["search"]]) {
      const io = captureIo({ cwd: tmp.dir });
      expect(await main(argv, io)).toBe(2);
      expect(io.err()).toContain("skillrt search --help");
    }
  });

  it("fails for a missing --root (exit 1) but still searches the other roots", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["search", "pdf", "--root", "skills", "--root", "nope"], io)).toBe(1);
    expect(io.err()).toBe(
      `skillrt search: Skill root ${path.join(tmp.dir, "nope")} does not exist. Create it or fix the path.\n`,
    );
    expect(io.out()).toContain("pdf-forms");
  });
});
