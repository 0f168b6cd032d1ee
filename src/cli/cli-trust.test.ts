import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SkillRecord } from "../catalog/types.js";
import { loadSkillrtConfig } from "../config/load-skillrt-config.js";
import { openCliTrust } from "./cli-trust.js";

let base: string;
let project: string;
let home: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-cli-trust-"));
  project = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(path.join(project, "vendor"), { recursive: true });
  await mkdir(path.join(home, ".skillrt"), { recursive: true });
});
afterEach(() => rm(base, { recursive: true, force: true }));

const subject = (source: string, scope: SkillRecord["scope"] = "root") =>
  ({ name: "s", scope, source }) as unknown as SkillRecord;

async function open(warnings: string[]) {
  const config = await loadSkillrtConfig({ cwd: project, home });
  const vendor = path.join(project, "vendor");
  const userRoot = path.join(base, "mine");
  return openCliTrust({
    roots: [
      { path: vendor, scope: "root" },
      { path: userRoot, scope: "root" },
    ],
    origins: new Map(),
    env: { HOME: home, SKILLRT_STATE_DIR: path.join(base, "state") },
    config,
    warn: (w) => warnings.push(w),
  });
}

describe("the CLI's trust", () => {
  it("folders a project's config file names are untrusted; its 'trust' key is ignored with a warning", async () => {
    await writeFile(
      path.join(project, "skillrt.config.json"),
      JSON.stringify({ roots: ["vendor"], trust: true }),
    );
    const warnings: string[] = [];
    const trust = await open(warnings);
    expect(trust).not.toBe(true);
    if (trust === true) return;
    expect(trust.isTrusted(subject(path.join(project, "vendor")))).toBe(false);
    expect(trust.howToTrust(subject(path.join(project, "vendor")))).toBe(
      `skillrt trust ${path.join(project, "vendor")}`,
    );
    expect(trust.isTrusted(subject(path.join(base, "mine")))).toBe(true);
    expect(warnings.join("\n")).toContain("'trust' is ignored here");
  });

  it("the user's config can trust everything, or the roots it lists", async () => {
    await writeFile(path.join(project, "skillrt.config.json"), JSON.stringify({ roots: ["vendor"] }));
    await writeFile(
      path.join(home, ".skillrt", "config.json"),
      JSON.stringify({ trust: [path.join(project, "vendor")] }),
    );
    const listed = await open([]);
    expect(listed !== true && listed.isTrusted(subject(path.join(project, "vendor")))).toBe(true);
    await writeFile(path.join(home, ".skillrt", "config.json"), JSON.stringify({ trust: true }));
    expect(await open([])).toBe(true);
  });
});
