import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import { createCatalog } from "./create-catalog.js";
import { defineSkill } from "./memory-source.js";
import { readSkillHead } from "./read-skill-head.js";
import { skillKey } from "./skill-origin.js";

let tmp: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-catalog-")));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

async function skill(
  dir: string,
  fields: Record<string, string> = {},
  body = "Do the thing.",
): Promise<void> {
  const name = fields["name"] ?? path.basename(dir);
  const lines = Object.entries({ name, description: `Skill ${name}.`, ...fields }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  await write(path.join(dir, "SKILL.md"), `---\n${lines.join("\n")}\n---\n\n${body}\n`);
}

describe("createCatalog: sources and precedence", () => {
  it("lets a project skill shadow a user skill of the same name and reports it", async () => {
    const cwd = `${tmp}/project`;
    const home = `${tmp}/home`;
    await skill(`${cwd}/.claude/skills/pdf`, { description: "Project pdf." });
    await skill(`${home}/.agents/skills/pdf`, { description: "User pdf." });
    await skill(`${home}/.agents/skills/only-user`);
    const catalog = await createCatalog({ cwd, home, env: {} });
    expect(catalog.list().map((r) => [r.name, r.scope])).toEqual([
      ["only-user", "user"],
      ["pdf", "project"],
    ]);
    expect(catalog.get("pdf")?.description).toBe("Project pdf.");
    const shadowed = catalog.diagnostics().filter((d) => d.code === "name-shadowed");
    expect(shadowed).toHaveLength(1);
    expect(shadowed[0]?.message).toContain(`${home}/.agents/skills/pdf/SKILL.md`);
    expect(shadowed[0]?.message).toContain(`${cwd}/.claude/skills/pdf/SKILL.md`);
  });

  it("resolves a name used twice in one root by sorted path order, reporting the loser as a duplicate", async () => {
    await skill(`${tmp}/r/b-dir`, { name: "same", description: "From b." });
    await skill(`${tmp}/r/a-dir`, { name: "same", description: "From a." });
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.list().map((r) => r.description)).toEqual(["From a."]);
    const [shadow] = catalog.diagnostics();
    expect(shadow).toMatchObject({ code: "name-duplicate", path: `${tmp}/r/b-dir/SKILL.md` });
    expect(Object.keys(shadow ?? {})).toEqual(["code", "severity", "message", "path"]); // the documented order
  });

  it("uses SKILLS_DIR as extra roots after project and user", async () => {
    await skill(`${tmp}/extra1/x`, { description: "Extra x." });
    await skill(`${tmp}/extra2/y`);
    await skill(`${tmp}/p/skills/x`, { description: "Project x." });
    const catalog = await createCatalog({
      cwd: `${tmp}/p`,
      home: `${tmp}/nohome`,
      env: { SKILLS_DIR: `${tmp}/extra1:${tmp}/extra2` },
    });
    expect(catalog.list().map((r) => [r.name, r.scope, r.description])).toEqual([
      ["x", "project", "Project x."],
      ["y", "extra", "Skill y."],
    ]);
  });

  it("finds lowercase skill.md and a root that is itself a skill", async () => {
    await write(`${tmp}/lower/skill.md`, "---\nname: lower\ndescription: Lower case file.\n---\nBody\n");
    await skill(`${tmp}/solo`);
    const catalog = await createCatalog({
      roots: [
        { path: `${tmp}/lower`, scope: "root" },
        { path: `${tmp}/solo`, scope: "user" },
      ],
    });
    expect(catalog.list().map((r) => [r.name, r.location])).toEqual([
      ["lower", `${tmp}/lower/skill.md`],
      ["solo", `${tmp}/solo/SKILL.md`],
    ]);
  });

  it("keeps broken skills out of the list and in diagnostics, and lenient warnings on the record", async () => {
    await write(`${tmp}/r/broken/SKILL.md`, "---\nname: broken\n---\n");
    await write(`${tmp}/r/empty/SKILL.md`, "");
    await write(`${tmp}/r/no-name/SKILL.md`, "---\ndescription: Has no name.\n---\nbody\n");
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.list().map((r) => r.name)).toEqual(["no-name"]);
    expect(catalog.get("no-name")?.diagnostics.map((d) => d.code)).toContain("name-from-directory");
    const broken = catalog.diagnostics().map((d) => [d.code, path.basename(path.dirname(d.path))]);
    expect(broken).toContainEqual(["description-missing", "broken"]);
    expect(broken).toContainEqual(["frontmatter-missing", "empty"]);
    expect(catalog.diagnostics().every((d) => d.severity === "error")).toBe(true);
  });

  it("treats a skill with errors as broken in strict mode", async () => {
    await skill(`${tmp}/r/Bad_Name`, { name: "Bad_Name" });
    await skill(`${tmp}/r/good`);
    const lenient = await createCatalog({ roots: [`${tmp}/r`] });
    expect(lenient.list().map((r) => r.name)).toEqual(["Bad_Name", "good"]);
    const strict = await createCatalog({ roots: [`${tmp}/r`], mode: "strict" });
    expect(strict.list().map((r) => r.name)).toEqual(["good"]);
    expect(strict.diagnostics().some((d) => d.path.includes("Bad_Name"))).toBe(true);
  });

  it("reads folded and quoted descriptions and maps the flags from extras", async () => {
    await write(
      `${tmp}/r/flags/SKILL.md`,
      [
        "---",
        "name: flags",
        "description: >-",
        "  Folded text",
        "  on two lines.",
        "disable-model-invocation: true",
        "user-invocable: no",
        "active: 'yes'",
        "tags: [pdf, forms]",
        "metadata:",
        "  author: me",
        "---",
        "body",
      ].join("\n"),
    );
    await write(
      `${tmp}/r/quoted/SKILL.md`,
      '---\nname: quoted\ndescription: "Say \\"hi\\": twice"\n---\nbody\n',
    );
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.get("flags")).toMatchObject({
      description: "Folded text on two lines.",
      disableModelInvocation: true,
      userInvocable: false,
      active: true,
      metadata: { author: "me" },
    });
    expect(catalog.get("flags")?.extras["tags"]).toEqual(["pdf", "forms"]);
    expect(catalog.get("quoted")).toMatchObject({
      description: 'Say "hi": twice',
      active: false,
      userInvocable: true,
    });
  });

  it("reads the description from a long body only when the frontmatter has none", async () => {
    const filler = "x".repeat(5000);
    await write(
      `${tmp}/r/long/SKILL.md`,
      `---\nname: long\n---\n\nFirst paragraph is the description.\n\n${filler}\n`,
    );
    await write(
      `${tmp}/r/bigfm/SKILL.md`,
      `---\nname: bigfm\nnote: ${filler}\ndescription: After a long field.\n---\nbody\n`,
    );
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.get("long")?.description).toBe("First paragraph is the description.");
    expect(catalog.get("bigfm")?.description).toBe("After a long field.");
  });

  it("reads a frontmatter below HTML comment banners, reading only the head of a long file", async () => {
    const body = `# Release notes\n\nWrite them per change.\n\n---\n\n${"Detail line.\n".repeat(600)}`;
    const banner =
      "<!-- Generated by docs-sync; edit the source. -->\r\n<!--\r\n  owner: docs team\r\n-->\r\n";
    await write(
      `${tmp}/r/notes/SKILL.md`,
      `${banner}---\r\nname: notes\r\ndescription: Drafts release notes.\r\n---\r\n${body.replace(/\n/g, "\r\n")}`,
    );
    const head = readSkillHead(`${tmp}/r/notes/SKILL.md`);
    expect(head.partial).toBe(true);
    expect(head.bytes.toString("utf8")).toMatch(/description: Drafts release notes\.\r\n---\r\n$/);
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.get("notes")).toMatchObject({ name: "notes", description: "Drafts release notes." });
    expect(catalog.get("notes")?.diagnostics.map((d) => d.code)).toEqual([
      "crlf-normalized",
      "frontmatter-offset",
    ]);
    const loaded = await catalog.load("notes");
    expect(loaded.body.startsWith("# Release notes\n\nWrite them per change.")).toBe(true);
    expect(loaded.bodyLine).toBe(9);
  });

  it("reads CRLF files in both modes, strips a BOM, and reports invalid UTF-8", async () => {
    await write(
      `${tmp}/r/crlf/SKILL.md`,
      "---\r\nname: crlf\r\ndescription: Windows file.\r\n---\r\nbody\r\n",
    );
    await write(`${tmp}/r/bom/SKILL.md`, "\ufeff---\nname: bom\ndescription: Has a BOM.\n---\nbody\n");
    await fs.mkdir(`${tmp}/r/latin1`, { recursive: true });
    await fs.writeFile(
      `${tmp}/r/latin1/SKILL.md`,
      Buffer.concat([
        Buffer.from("---\nname: latin1\ndescription: Caf"),
        Buffer.from([0xe9]),
        Buffer.from(".\n---\nbody\n"),
      ]),
    );
    const lenient = await createCatalog({ roots: [`${tmp}/r`] });
    expect(lenient.get("crlf")?.description).toBe("Windows file.");
    expect(lenient.get("bom")?.diagnostics.map((d) => d.code)).toEqual(["bom-stripped"]);
    const latin1 = [...(lenient.get("latin1")?.diagnostics ?? []), ...lenient.diagnostics()];
    expect(latin1.map((d) => d.code)).toContain("encoding-invalid");
    const strict = await createCatalog({ roots: [`${tmp}/r`], mode: "strict" });
    expect(strict.get("crlf")?.description).toBe("Windows file.");
  });

  it("serves memory skills after disk skills unless told otherwise", async () => {
    await skill(`${tmp}/r/dup`, { description: "Disk dup." });
    const memory = [
      defineSkill({ name: "dup", description: "Memory dup.", body: "mem" }),
      defineSkill({
        name: "greet",
        description: "Greets.",
        body: "Say hello.",
        resources: { "references/tone.md": "Be warm.\nAlways." },
      }),
    ];
    const catalog = await createCatalog({ roots: [`${tmp}/r`], memory });
    expect(catalog.get("dup")?.description).toBe("Disk dup.");
    expect(catalog.get("greet")).toMatchObject({
      location: "memory:greet/SKILL.md",
      dir: "memory:greet",
      scope: "memory",
    });
    expect(catalog.diagnostics().map((d) => [d.code, d.path])).toEqual([
      ["name-shadowed", "memory:dup/SKILL.md"],
    ]);
    const first = await createCatalog({ roots: [`${tmp}/r`], memory, memoryPrecedence: "first" });
    expect(first.get("dup")?.description).toBe("Memory dup.");

    expect(await catalog.load("greet")).toMatchObject({ body: "Say hello." });
    expect((await catalog.files("greet")).map((f) => [f.path, f.kind])).toEqual([
      ["SKILL.md", "doc"],
      ["references/tone.md", "reference"],
    ]);
    expect(await catalog.readFile("greet", "references/tone.md", { startLine: 2 })).toMatchObject({
      kind: "text",
      content: "Always.",
    });
    const skillMd = await catalog.readFile("greet", "SKILL.md");
    expect(skillMd.kind === "text" && skillMd.content.includes("Say hello.")).toBe(true);
    expect(await catalog.readFile("greet", "../dup/SKILL.md")).toMatchObject({ kind: "refused" });
    expect(await catalog.readFile("greet", "nope.md")).toMatchObject({
      kind: "not-found",
      available: ["SKILL.md", "references/tone.md"],
    });
  });
});

describe("createCatalog: L2 and lookups", () => {
  it("loads the body lazily, with its line, and throws SkillNotFoundError with close names", async () => {
    await skill(`${tmp}/r/pdf-tools`, {}, "# Title\n\nSteps.");
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    const loaded = await catalog.load("pdf-tools");
    expect(loaded.body).toBe("# Title\n\nSteps.");
    expect(loaded.bodyLine).toBe(6);
    const error = await catalog.load("pdf-tool").catch((e: unknown) => e);
    expect(SkillNotFoundError.isInstance(error)).toBe(true);
    expect((error as SkillNotFoundError).closest).toEqual(["pdf-tools"]);
    expect(catalog.closest("PDF")).toEqual(["pdf-tools"]);
    expect(await catalog.readFile("pdf-tool", "SKILL.md")).toEqual({
      kind: "unknown-skill",
      name: "pdf-tool",
      closest: ["pdf-tools"],
    });
  });

  it("lists a skill's own files only: not hidden files and not the files of nested skills", async () => {
    await skill(`${tmp}/r/outer`);
    await skill(`${tmp}/r/outer/examples/inner`);
    await write(`${tmp}/r/outer/examples/notes.md`, "notes");
    await write(`${tmp}/r/outer/.env`, "SECRET=1");
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.list().map((r) => r.name)).toEqual(["inner", "outer"]);
    expect((await catalog.files("outer")).map((f) => f.path)).toEqual(["SKILL.md", "examples/notes.md"]);
    await expect(catalog.files("nope")).rejects.toThrow(SkillNotFoundError);
  });

  it("reports a missing explicit root but not a missing default one", async () => {
    const explicit = await createCatalog({ roots: [`${tmp}/missing`] });
    expect(explicit.diagnostics().map((d) => d.code)).toEqual(["path-not-found"]);
    const defaults = await createCatalog({ cwd: `${tmp}/nowhere`, home: `${tmp}/nohome`, env: {} });
    expect(defaults.list()).toEqual([]);
    expect(defaults.diagnostics()).toEqual([]);
  });
});

describe("createCatalog: refresh and abort", () => {
  it("refresh() picks up added, edited and removed skills and keeps unchanged records", async () => {
    await skill(`${tmp}/r/keep`);
    await skill(`${tmp}/r/edit`, { description: "Old." });
    await skill(`${tmp}/r/gone`);
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    // Age the files so the first re-scan can trust mtimes (the first scan records no stat).
    const old = new Date(Date.now() - 60_000);
    for (const name of ["keep", "edit"]) await fs.utimes(`${tmp}/r/${name}/SKILL.md`, old, old);
    const keep = catalog.get("keep");
    await skill(`${tmp}/r/edit`, { description: "New." });
    await skill(`${tmp}/r/added`);
    await fs.rm(`${tmp}/r/gone`, { recursive: true });
    await catalog.refresh();
    expect(catalog.list().map((r) => r.name)).toEqual(["added", "edit", "keep"]);
    expect(catalog.get("edit")?.description).toBe("New.");
    expect(catalog.get("keep")).toBe(keep);
  });

  it("reports a SKILL.md over the size limit (never read whole) and one that is a FIFO or a device", async () => {
    await write(`${tmp}/r/big/SKILL.md`, "---\nname: big\ndescription: Huge.\n---\n");
    await fs.truncate(`${tmp}/r/big/SKILL.md`, 1024 ** 3); // sparse: 1 GiB on paper
    await fs.mkdir(`${tmp}/r/fifo`, { recursive: true });
    execFileSync("mkfifo", [`${tmp}/r/fifo/SKILL.md`]);
    await fs.mkdir(`${tmp}/r/device`);
    await fs.symlink("/dev/null", `${tmp}/r/device/SKILL.md`);
    await skill(`${tmp}/r/fine`);
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    expect(catalog.list().map((r) => r.name)).toEqual(["fine"]);
    const found = catalog.diagnostics().map((d) => [d.code, d.severity, d.path]);
    expect(found).toEqual([
      ["file-unreadable", "warning", `${tmp}/r/device/SKILL.md`],
      ["file-unreadable", "warning", `${tmp}/r/fifo/SKILL.md`],
      ["file-too-large", "error", `${tmp}/r/big/SKILL.md`],
    ]);
    const messages = catalog.diagnostics().map((d) => d.message);
    expect(messages[0]).toContain("is a device");
    expect(messages[1]).toContain("is a FIFO");
    expect(messages[2]).toContain("1073741824 bytes, over the 1048576-byte limit");
  });

  it("refuses to load a SKILL.md that grew past the size limit since the scan", async () => {
    await skill(`${tmp}/r/grows`);
    const catalog = await createCatalog({ roots: [`${tmp}/r`] });
    await fs.truncate(`${tmp}/r/grows/SKILL.md`, 1024 ** 3);
    const error = await catalog.load("grows").catch((e: unknown) => e);
    expect(SkillrtError.isInstance(error) && error.code).toBe("file-too-large");
    expect((error as Error).message).toContain("over the 1048576-byte limit");
  });

  it("rejects when the abort signal has fired", async () => {
    await skill(`${tmp}/r/a`);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(createCatalog({ roots: [`${tmp}/r`], abortSignal: controller.signal })).rejects.toThrow(
      "stop",
    );
  });
});

describe("origins", () => {
  const write = async (file: string, name: string) => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody.\n`);
  };

  it("every record carries its source's origin, shared by the source's records, also when read from the cache", async () => {
    await write(`${tmp}/a/alpha/SKILL.md`, "alpha");
    await write(`${tmp}/a/beta/SKILL.md`, "beta");
    await write(`${tmp}/b/gamma/SKILL.md`, "gamma");
    const options = {
      roots: [`${tmp}/a`, `${tmp}/b`],
      memory: [defineSkill({ name: "delta", description: "In code.", body: "Delta." })],
      cacheDir: `${tmp}/cache`,
    };
    for (const catalog of [await createCatalog(options), await createCatalog(options)]) {
      const origin = (name: string) => catalog.get(name)?.origin;
      expect(origin("alpha")).toEqual({ kind: "fs", id: `${tmp}/a`, label: `root ${tmp}/a` });
      expect(origin("beta")).toBe(origin("alpha"));
      expect(origin("gamma")).toMatchObject({ kind: "fs", id: `${tmp}/b` });
      expect(origin("delta")).toEqual({ kind: "memory", id: "memory", label: "memory" });
    }
    // The cache files keep no per-record copy of the origin: an empty mark for "the root's".
    const files = (await fs.readdir(`${tmp}/cache`)).filter((f) => /^catalog-.*\.cache$/.test(f));
    expect(files).toHaveLength(2);
    for (const file of files) {
      const text = (await fs.readFile(`${tmp}/cache/${file}`)).toString("latin1");
      expect(text).toContain('"origin":""');
      expect(text).not.toContain('"label"');
    }
  });

  it("identity is origin + path: one name in two roots is two skills with two keys", async () => {
    await write(`${tmp}/one/pdf/SKILL.md`, "pdf");
    await write(`${tmp}/two/pdf/SKILL.md`, "pdf");
    const first = (await createCatalog({ roots: [`${tmp}/one`] })).get("pdf");
    const second = (await createCatalog({ roots: [`${tmp}/two`] })).get("pdf");
    expect(first?.name).toBe(second?.name);
    expect(skillKey(first!)).toBe(`fs:${tmp}/one|${tmp}/one/pdf/SKILL.md`);
    expect(skillKey(first!)).not.toBe(skillKey(second!));
    const both = await createCatalog({ roots: [`${tmp}/one`, `${tmp}/two`] });
    expect(both.get("pdf")?.origin.id).toBe(`${tmp}/one`);
    expect(both.diagnostics().find((d) => d.code === "name-duplicate")?.path).toBe(`${tmp}/two/pdf/SKILL.md`);
  });
});
