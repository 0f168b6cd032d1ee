import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import { createCatalog } from "./create-catalog.js";

let tmp: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-plugins-")));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

async function skill(dir: string, body: string, name = path.basename(dir)): Promise<void> {
  await write(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: Skill ${name}.\n---\n\n${body}\n`,
  );
}

/**
 * A marketplace in both formats: Claude Code's `.claude-plugin/marketplace.json` lists plugin `a` (a
 * Claude Code plugin) and `b` (a Codex plugin); Codex's `.agents/plugins/marketplace.json` lists `c`,
 * which has no manifest of its own. `a` and `b` both ship a `review` skill.
 */
async function marketplace(root: string): Promise<void> {
  await write(
    `${root}/.claude-plugin/marketplace.json`,
    JSON.stringify({
      name: "team",
      owner: { name: "Team" },
      plugins: [
        { name: "a", source: "./plugins/a" },
        { name: "b", source: "./plugins/b" },
        { name: "remote", source: { source: "github", repo: "someone/else" } },
      ],
    }),
  );
  await write(
    `${root}/.agents/plugins/marketplace.json`,
    JSON.stringify({
      name: "team",
      plugins: [{ name: "c", source: { source: "local", path: "./plugins/c" } }],
    }),
  );
  await write(
    `${root}/plugins/a/.claude-plugin/plugin.json`,
    JSON.stringify({ name: "a", version: "1.0.0" }),
  );
  await skill(`${root}/plugins/a/skills/review`, "Review as plugin A does.");
  await skill(`${root}/plugins/a/skills/lint`, "Lint as plugin A does.");
  await write(`${root}/plugins/b/.codex-plugin/plugin.json`, JSON.stringify({ name: "b" }));
  await skill(`${root}/plugins/b/skills/review`, "Review as plugin B does.");
  await skill(`${root}/plugins/c/skills/format`, "Format as plugin C does.");
}

describe("plugins in a skill root", () => {
  it("names same-name skills of different plugins plugin:skill, keeps unique ones short, and drops none", async () => {
    await marketplace(`${tmp}/market`);
    const catalog = await createCatalog({ roots: [`${tmp}/market`] });
    expect(catalog.list().map((r) => [r.name, r.plugin])).toEqual([
      ["a:review", "a"],
      ["b:review", "b"],
      ["format", "c"],
      ["lint", "a"],
    ]);
    expect(
      catalog.diagnostics().filter((d) => d.code === "name-duplicate" || d.code === "name-shadowed"),
    ).toEqual([]);
    expect((await catalog.load("a:review")).body).toBe("Review as plugin A does.");
    expect((await catalog.load("b:review")).body).toBe("Review as plugin B does.");
    // The short name of a unique plugin skill works, and so does its qualified name.
    expect(catalog.get("a:lint")?.name).toBe("lint");
    expect((await catalog.load("a:lint")).body).toBe("Lint as plugin A does.");
    expect((await catalog.files("c:format")).map((f) => f.path)).toEqual(["SKILL.md"]);
    const read = await catalog.readFile("a:lint", "SKILL.md");
    expect(read.kind).toBe("text");
  });

  it("refuses a short name several plugins share, offering both qualified names", async () => {
    await marketplace(`${tmp}/market`);
    const catalog = await createCatalog({ roots: [`${tmp}/market`] });
    expect(catalog.get("review")).toBeUndefined();
    const error = await catalog.load("review").catch((e: unknown) => e);
    expect(SkillNotFoundError.isInstance(error)).toBe(true);
    expect((error as SkillNotFoundError).ambiguous).toBe(true);
    expect((error as SkillNotFoundError).closest).toEqual(["a:review", "b:review"]);
    expect((error as Error).message).toBe(
      "Skill 'review' is ambiguous: skills of several plugins have that name. Use one of: a:review, b:review.",
    );
    expect(await catalog.readFile("review", "SKILL.md")).toMatchObject({
      kind: "unknown-skill",
      closest: ["a:review", "b:review"],
    });
  });

  it("keeps a plain skill's short name beside a plugin skill of the same name (neither shadows the other)", async () => {
    await write(`${tmp}/r/tools/.claude-plugin/plugin.json`, JSON.stringify({ name: "tools" }));
    await skill(`${tmp}/r/tools/skills/pdf`, "Plugin pdf.");
    await skill(`${tmp}/user/pdf`, "User pdf.");
    const catalog = await createCatalog({ roots: [`${tmp}/r`, `${tmp}/user`] });
    expect(catalog.list().map((r) => r.name)).toEqual(["pdf", "tools:pdf"]);
    expect((await catalog.load("pdf")).body).toBe("User pdf.");
    expect((await catalog.load("tools:pdf")).body).toBe("Plugin pdf.");
    expect(catalog.diagnostics().filter((d) => d.code.startsWith("name-"))).toEqual([]);
  });

  it("takes the plugin folder's name when its manifest has no usable name, and warns about a broken manifest", async () => {
    await write(`${tmp}/r/my-kit/.claude-plugin/plugin.json`, JSON.stringify({ version: "2" }));
    await skill(`${tmp}/r/my-kit/skills/one`, "One.");
    await write(`${tmp}/r/broken/.codex-plugin/plugin.json`, "{ not json");
    await skill(`${tmp}/r/broken/skills/two`, "Two.");
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.list().map((r) => [r.name, r.plugin])).toEqual([
      ["one", "my-kit"],
      ["two", undefined],
    ]);
    const warning = catalog.diagnostics().find((d) => d.code === "plugin-manifest-invalid");
    expect(warning?.message).toContain(`${tmp}/r/broken/.codex-plugin/plugin.json`);
    expect(warning?.message).toContain("not valid JSON");
  });

  it("reads no manifest reached through a link, and no marketplace entry outside its own tree", async () => {
    await write(`${tmp}/elsewhere/plugin.json`, JSON.stringify({ name: "evil" }));
    await fs.mkdir(`${tmp}/r/kit/.claude-plugin`, { recursive: true });
    await fs.symlink(`${tmp}/elsewhere/plugin.json`, `${tmp}/r/kit/.claude-plugin/plugin.json`);
    await skill(`${tmp}/r/kit/skills/one`, "One.");
    await write(
      `${tmp}/r/.claude-plugin/marketplace.json`,
      JSON.stringify({ name: "m", plugins: [{ name: "up", source: "../outside" }] }),
    );
    await skill(`${tmp}/outside/skills/three`, "Three.");
    const catalog = await createCatalog({ roots: [`${tmp}/r`, `${tmp}/outside`] });
    expect(catalog.list().map((r) => [r.name, r.plugin])).toEqual([
      ["one", undefined],
      ["three", undefined],
    ]);
    expect(catalog.diagnostics().find((d) => d.code === "plugin-manifest-invalid")?.message).toContain(
      "not a regular file",
    );
  });

  it("names a skill again when its plugin's manifest appears after a refresh", async () => {
    await skill(`${tmp}/r/kit/skills/review`, "Kit review.");
    await skill(`${tmp}/u/review`, "Own review.");
    const catalog = await createCatalog({ roots: [`${tmp}/r`, `${tmp}/u`] });
    expect(catalog.list().map((r) => r.name)).toEqual(["review"]);
    await write(`${tmp}/r/kit/.claude-plugin/plugin.json`, JSON.stringify({ name: "kit" }));
    await catalog.refresh();
    expect(catalog.list().map((r) => r.name)).toEqual(["kit:review", "review"]);
    expect((await catalog.load("kit:review")).body).toBe("Kit review.");
  });

  it("counts as the plugin's only the skills in its skill folders (skills/ and the paths its manifest names)", async () => {
    await write(
      `${tmp}/r/.claude-plugin/plugin.json`,
      JSON.stringify({ name: "kit", skills: ["./extra/", "../x"] }),
    );
    await skill(`${tmp}/r/skills/flow`, "Plugin flow.");
    await skill(`${tmp}/r/extra/more`, "Plugin more.");
    await skill(`${tmp}/r/preview/flow`, "Preview flow.");
    await skill(`${tmp}/r/preview/draft`, "A draft.");
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.list().map((r) => [r.name, r.plugin])).toEqual([
      ["draft", undefined],
      ["flow", undefined],
      ["kit:flow", "kit"],
      ["more", "kit"],
    ]);
    expect((await catalog.load("flow")).body).toBe("Preview flow.");
    expect((await catalog.load("kit:flow")).body).toBe("Plugin flow.");
  });

  it("counts a folder whose SKILL.md links to a skill in its own folder as that skill, not a duplicate", async () => {
    await write(`${tmp}/r/kit/.claude-plugin/plugin.json`, JSON.stringify({ name: "kit" }));
    await skill(`${tmp}/r/kit/skills/init`, "Kit init.");
    await skill(`${tmp}/r/other/.claude-plugin/../skills/init`, "Other init.");
    await write(`${tmp}/r/other/.claude-plugin/plugin.json`, JSON.stringify({ name: "other" }));
    // A mirror for another agent: links to the real SKILL.md files.
    await fs.mkdir(`${tmp}/r/.gemini/skills/init`, { recursive: true });
    await fs.symlink("../../../kit/skills/init/SKILL.md", `${tmp}/r/.gemini/skills/init/SKILL.md`);
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.list().map((r) => [r.name, r.dir])).toEqual([
      ["kit:init", `${tmp}/r/kit/skills/init`],
      ["other:init", `${tmp}/r/other/skills/init`],
    ]);
    expect(catalog.diagnostics().filter((d) => d.code.startsWith("name-"))).toEqual([]);
  });
});
