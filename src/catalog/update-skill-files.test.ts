import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CatalogState, type ScanInput, scanCatalog } from "./scan-catalog.js";
import { updateSkillFiles } from "./update-skill-files.js";

let tmp: string;
let input: ScanInput;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-update-")));
  input = {
    roots: [
      { path: `${tmp}/a`, scope: "project" },
      { path: `${tmp}/b`, scope: "user" },
    ],
    memory: [],
    mode: "lenient",
    memoryPrecedence: "last",
  };
  for (const [root, name, description] of [
    ["a", "alpha", "Alpha."],
    ["a", "beta", "Beta."],
    ["a", "gamma", "Gamma."],
    ["b", "beta", "Beta, shadowed by the project one."],
  ]) {
    write(`${tmp}/${root}/${name}/SKILL.md`, skillMd(name!, description!));
  }
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`;

/** What the state serves, as a fresh scan would assemble it. */
function served(state: CatalogState): unknown {
  return { records: state.records, byName: [...state.byName], diagnostics: state.diagnostics };
}

describe("updateSkillFiles", () => {
  it("replaces an edited record where it is served and leaves every other record object alone", async () => {
    const state = await scanCatalog(input);
    const [alpha, beta, gamma] = state.records;
    write(`${tmp}/a/beta/SKILL.md`, skillMd("beta", "Beta, edited."));
    const event = updateSkillFiles(input, state, [`${tmp}/a/beta`]);
    expect(event).toEqual({ added: [], changed: ["beta"], removed: [], diagnostics: [] });
    expect(state.records[0]).toBe(alpha);
    expect(state.records[2]).toBe(gamma);
    expect(state.records[1]).not.toBe(beta);
    expect(state.byName.get("beta")).toBe(state.records[1]);
    expect(state.byName.get("beta")?.description).toBe("Beta, edited.");
    // The same as a full scan of the tree as it is now.
    expect(JSON.stringify(served(state))).toBe(JSON.stringify(served(await scanCatalog(input))));
  });

  it("reports nothing for a touched file or an edit of a shadowed skill, but keeps the new identity", async () => {
    const state = await scanCatalog(input);
    const before = served(state);
    const records = [...state.records];
    write(`${tmp}/a/gamma/SKILL.md`, skillMd("gamma", "Gamma."));
    write(`${tmp}/b/beta/SKILL.md`, skillMd("beta", "The shadowed one, edited."));
    expect(updateSkillFiles(input, state, [`${tmp}/a/gamma`, `${tmp}/b/beta`])).toBeUndefined();
    expect(state.records).toEqual(records);
    for (const [i, record] of state.records.entries()) expect(record).toBe(records[i]);
    expect(served(state)).toEqual(before);
    expect(state.scanned.get(`${tmp}/b/beta`)?.record?.description).toBe("The shadowed one, edited.");
  });

  it("declines, changing nothing, when an edit renames a skill or breaks it", async () => {
    const state = await scanCatalog(input);
    const before = JSON.stringify({ ...(served(state) as object), scanned: [...state.scanned] });
    write(`${tmp}/a/alpha/SKILL.md`, skillMd("alpha-renamed", "Alpha."));
    expect(updateSkillFiles(input, state, [`${tmp}/a/alpha`])).toBe(false);
    write(`${tmp}/a/alpha/SKILL.md`, "---\nname: alpha\n---\n");
    expect(updateSkillFiles(input, state, [`${tmp}/a/alpha`])).toBe(false);
    expect(JSON.stringify({ ...(served(state) as object), scanned: [...state.scanned] })).toBe(before);
  });
});
