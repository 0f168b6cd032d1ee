import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMcpFileCache } from "./mcp-file-cache.js";
import { skillFrontmatter } from "./skill-frontmatter.js";
import { frontmatterMismatch, sha256Digest } from "./verify-skill-file.js";

const encoder = new TextEncoder();

describe("frontmatterMismatch", () => {
  const md = (yaml: string) => skillFrontmatter(encoder.encode(`---\n${yaml}\n---\n\nBody.\n`));

  it("accepts a SKILL.md whose frontmatter equals the entry's, field by field", () => {
    const listed = { name: "pdf", description: "PDFs.", metadata: { version: "2" }, tags: ["a", "b"] };
    expect(
      frontmatterMismatch(
        md('name: pdf\ndescription: PDFs.\nmetadata:\n  version: "2"\ntags: [a, b]'),
        listed,
      ),
    ).toBeUndefined();
  });

  it("names the first field that differs, is missing or was added", () => {
    expect(
      frontmatterMismatch(md("name: pdf\ndescription: Other."), { name: "pdf", description: "PDFs." }),
    ).toBe(`frontmatter field 'description' differs: the listing says "PDFs.", its SKILL.md "Other."`);
    expect(
      frontmatterMismatch(md("name: pdf\ndescription: PDFs."), {
        name: "pdf",
        description: "PDFs.",
        license: "MIT",
      }),
    ).toBe("frontmatter field 'license' is in the listing but not in its SKILL.md");
    expect(
      frontmatterMismatch(md("name: pdf\ndescription: PDFs.\nactive: true"), {
        name: "pdf",
        description: "PDFs.",
      }),
    ).toBe("frontmatter field 'active' is in its SKILL.md but not in the listing");
    // YAML 1.2 typing counts: the number 2 is not the string "2".
    expect(
      frontmatterMismatch(md("name: pdf\ndescription: PDFs.\nversion: 2"), {
        name: "pdf",
        description: "PDFs.",
        version: "2",
      }),
    ).toMatch(/'version' differs/);
  });

  it("refuses a SKILL.md without frontmatter", () => {
    expect(
      frontmatterMismatch(skillFrontmatter(encoder.encode("# Just a body\n")), {
        name: "pdf",
        description: "x",
      }),
    ).toMatch(/no frontmatter/);
  });
});

describe("the verified-file cache", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-cache-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps a file per server label and URI, served only while its digest matches", async () => {
    const cache = createMcpFileCache(path.join(dir, "cache"));
    const bytes = encoder.encode("echo one\n");
    cache.put("one", "skill://pdf/scripts/x.sh", bytes);
    cache.put("two", "skill://pdf/scripts/x.sh", encoder.encode("echo two\n"));
    // Same URI on two servers: two files, each path naming its server.
    expect(cache.pathOf("one", "skill://pdf/scripts/x.sh")).toContain(`${path.sep}server-one${path.sep}`);
    expect(cache.pathOf("one", "skill://pdf/scripts/x.sh")).not.toBe(
      cache.pathOf("two", "skill://pdf/scripts/x.sh"),
    );
    expect(cache.get("one", "skill://pdf/scripts/x.sh", sha256Digest(bytes))).toEqual(Buffer.from(bytes));
    // The entry now promises other bytes: the cached copy is not used.
    expect(
      cache.get("one", "skill://pdf/scripts/x.sh", sha256Digest(encoder.encode("echo new\n"))),
    ).toBeUndefined();
    // Bytes changed on disk since they were verified: not used either.
    await writeFile(cache.pathOf("one", "skill://pdf/scripts/x.sh"), "rm -rf ~\n");
    expect(cache.get("one", "skill://pdf/scripts/x.sh", sha256Digest(bytes))).toBeUndefined();
  });

  it("a label that is a path trick stays one folder below the cache", () => {
    const cache = createMcpFileCache(path.join(dir, "cache"));
    const where = cache.pathOf("../..", "skill://a/SKILL.md");
    expect(path.relative(path.join(dir, "cache", "mcp-skills"), where).startsWith("..")).toBe(false);
  });
});
