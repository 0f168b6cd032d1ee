import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bodyOpening, HEADINGS_CHARS, OPENING_CHARS } from "./body-opening.js";
import { createCatalog } from "./create-catalog.js";
import { defineSkill } from "./memory-source.js";
import { decodedHead, HEAD_BYTES, readSkillHead } from "./read-skill-head.js";
import { bodyTexts } from "./search-texts.js";

describe("bodyOpening", () => {
  it("keeps headings and prose apart, as plain words, without code, comments or table rules", () => {
    const body = [
      "",
      "# Release notes",
      "<!-- generated, do not edit -->",
      "Write **release notes** from the [git log](https://example.com/log) since the last tag.",
      "",
      "```bash",
      "git log --oneline v1.0..HEAD",
      "```",
      "## When to use",
      "- before a *release*",
      "| step | what |",
      "|------|:----:|",
      "| 1 | tag |",
      "![diagram of the flow](flow.png)",
      "<details>More</details>",
      "",
    ].join("\n");
    expect(bodyOpening(body)).toEqual({
      headings: "Release notes\nWhen to use",
      opening:
        "Write release notes from the git log since the last tag. before a release step what 1 tag diagram of the flow More",
    });
  });

  it("caps both parts on word boundaries", () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const body = `# ${"Heading ".repeat(60)}\n${words}\n`;
    const { opening, headings } = bodyOpening(body);
    expect(opening.length).toBeLessThanOrEqual(OPENING_CHARS);
    expect(opening.length).toBeGreaterThan(OPENING_CHARS - 12);
    expect(opening.startsWith("word0 word1 ")).toBe(true);
    expect(opening.split(" ").every((w) => /^word\d+$/.test(w))).toBe(true);
    expect(headings.length).toBeLessThanOrEqual(HEADINGS_CHARS);
    expect(headings.endsWith("Heading")).toBe(true);
  });

  it("gives empty parts for an empty body", () => {
    expect(bodyOpening("")).toEqual({ opening: "", headings: "" });
    expect(bodyOpening("```\nonly code\n```\n")).toEqual({ opening: "", headings: "" });
  });
});

describe("records keep their body's opening", () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-opening-"));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });
  const write = async (name: string, frontmatter: string, body: string) => {
    await fs.mkdir(path.join(tmp, "skills", name), { recursive: true });
    await fs.writeFile(path.join(tmp, "skills", name, "SKILL.md"), `---\n${frontmatter}---\n${body}`);
  };

  it("the head read hands over the body's start, cut after whole words when the file goes on", async () => {
    const frontmatter = "---\nname: cut\ndescription: Cut one.\n---\n";
    const file = path.join(tmp, "SKILL.md");
    await fs.writeFile(file, `${frontmatter}${"é-word ".repeat(1000)}`);
    const head = readSkillHead(file);
    expect(head.partial).toBe(true);
    expect(head.bodyStart!.length).toBeGreaterThan(HEAD_BYTES / 2 - frontmatter.length);
    expect(head.bodyStart!.endsWith("é-word ")).toBe(true);
    await fs.writeFile(file, `${frontmatter}Whole body, no line break at the end`);
    expect(readSkillHead(file).bodyStart).toBe("Whole body, no line break at the end");
    const buffer = Buffer.from(`${frontmatter}half-wo`);
    expect(decodedHead(buffer, 0, frontmatter.length, true).bodyStart).toBeUndefined();
    const more = { end: buffer.length, more: true };
    expect(decodedHead(buffer, 0, frontmatter.length, true, more).bodyStart).toBe("");
    const all = { end: buffer.length, more: false };
    expect(decodedHead(buffer, 0, frontmatter.length, true, all).bodyStart).toBe("half-wo");
  });

  it("search reads them from the file (a head read, a whole read when the frontmatter is long), through the cache, and in memory", async () => {
    await write(
      "short",
      "name: short\ndescription: Short one.\n",
      "# Rotating keys\nRenew the API tokens.\n",
    );
    const long = `name: long\ndescription: Long one.\nnotes: ${"x".repeat(5000)}\n`;
    await write("long", long, "## Steps\nArchive the old tickets first.\n");
    expect(bodyTexts(path.join(tmp, "skills", "short", "SKILL.md"))).toEqual({
      headings: "Rotating keys",
      opening: "Renew the API tokens.",
    });
    expect(bodyTexts(path.join(tmp, "skills", "long", "SKILL.md"))).toEqual({
      headings: "Steps",
      opening: "Archive the old tickets first.",
    });
    expect(bodyTexts(path.join(tmp, "skills", "gone", "SKILL.md"))).toEqual({ headings: "", opening: "" });
    const options = { roots: [path.join(tmp, "skills")], cacheDir: path.join(tmp, "cache") };
    const cold = await createCatalog(options);
    // Listing never reads a body: the records carry none of it.
    expect(cold.get("short")).not.toHaveProperty("opening");
    expect(cold.get("long")).not.toHaveProperty("headings");
    // Search does: a word only the body uses finds the skill, and the hit is the catalog's own record.
    expect((await cold.search("renew tokens", 1))[0]?.record).toBe(cold.get("short"));
    expect((await cold.search("archive tickets", 1))[0]?.record).toBe(cold.get("long"));
    const warm = await createCatalog(options); // the index stored by the cold catalog
    expect(warm.get("short")).toEqual(cold.get("short"));
    expect((await warm.search("renew tokens", 1))[0]?.record.name).toBe("short");
    expect((await warm.search("archive tickets", 1))[0]?.record.name).toBe("long");
    expect(JSON.stringify((await warm.search("archive tickets", 1))[0]?.record)).toBe(
      JSON.stringify(warm.get("long")),
    );

    const memory = await createCatalog({
      roots: [],
      memory: [
        defineSkill({ name: "m", description: "Memory one.", body: "# Intro\nGreets people warmly." }),
      ],
    });
    expect(memory.get("m")).toMatchObject({ headings: "Intro", opening: "Greets people warmly." });
  });

  it("a body edit that keeps the frontmatter and the file's size is searched after a refresh", async () => {
    await write("edit", "name: edit\ndescription: Edited one.\n", "# Intro\nPolish lanterns.\n");
    const catalog = await createCatalog({
      roots: [path.join(tmp, "skills")],
      cacheDir: path.join(tmp, "cache"),
    });
    expect((await catalog.search("lanterns", 1))[0]?.record.name).toBe("edit");
    expect(await catalog.search("kettles", 1)).toEqual([]);
    const file = path.join(tmp, "skills", "edit", "SKILL.md");
    const before = await fs.readFile(file, "utf8");
    await fs.writeFile(file, before.replace("Polish lanterns.", "Descale kettles."));
    expect((await fs.stat(file)).size).toBe(Buffer.byteLength(before));
    await catalog.refresh();
    expect((await catalog.search("kettles", 1))[0]?.record.name).toBe("edit");
    expect(await catalog.search("lanterns", 1)).toEqual([]);
  });
});
