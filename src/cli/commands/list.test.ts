import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCatalog } from "../../catalog/create-catalog.js";
import { SETTLE_MS } from "../../catalog/file-identity.js";
import type { SkillRecord } from "../../catalog/types.js";
import { captureIo } from "../__fixtures__/capture-io.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";
import { main } from "../main.js";
import { type ListedSkill, toListedSkill } from "./list.js";

/** The `--json` shape as first written (optional keys spread in only when set): the reference output. */
function referenceListedSkill(record: SkillRecord): ListedSkill {
  return {
    name: record.name,
    description: record.description,
    location: record.location,
    scope: record.scope,
    source: record.source,
    dir: record.dir,
    ...(record.license === undefined ? {} : { license: record.license }),
    ...(record.compatibility === undefined ? {} : { compatibility: record.compatibility }),
    ...(record.allowedTools === undefined ? {} : { allowedTools: record.allowedTools }),
    ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
    extras: record.extras,
    disableModelInvocation: record.disableModelInvocation,
    userInvocable: record.userInvocable,
    active: record.active,
    warnings: record.diagnostics.filter((d) => d.severity === "warning").length,
    errors: record.diagnostics.filter((d) => d.severity === "error").length,
  };
}

function record(name: string, fields: Partial<SkillRecord> = {}): SkillRecord {
  return {
    name,
    description: `Does ${name}.`,
    location: `/skills/${name}/SKILL.md`,
    dir: `/skills/${name}`,
    scope: "project",
    source: "/skills",
    origin: { kind: "fs", id: "/skills", label: "project root /skills" },
    extras: {},
    disableModelInvocation: false,
    userInvocable: true,
    active: false,
    diagnostics: [],
    ...fields,
  };
}

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
  it("--json shows nested metadata maps and lists as JSON, not as Python-style strings", async () => {
    await writeSkill(
      root,
      "nested",
      fm(
        "nested",
        "Has nested metadata.",
        "metadata:\n  owner:\n    team: data\n  tags:\n    - a\n    - b\n  level: basic",
      ),
    );
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--root", "skills", "--json"], io)).toBe(0);
    const parsed = JSON.parse(io.out()) as { skills: Record<string, unknown>[] };
    const nested = parsed.skills.find((s) => s["name"] === "nested");
    expect(nested?.["metadata"]).toEqual({ owner: { team: "data" }, tags: ["a", "b"], level: "basic" });
    // Warm, from the metadata cache, the same.
    const warm = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--root", "skills", "--json"], warm)).toBe(0);
    expect(warm.out()).toBe(io.out());
  });

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
      "errors",
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

  it("prints the same JSON warm, from the metadata cache, as cold", async () => {
    const cacheDir = `${tmp.dir}/cache`;
    const list = async (env: Record<string, string>) => {
      const io = captureIo({ cwd: tmp.dir, env: { HOME: tmp.dir, ...env } });
      expect(await main(["list", "--root", "skills", "--json"], io)).toBe(0);
      return io.out();
    };
    const cold = await list({ SKILLRT_CACHE: "0" });
    expect(await list({ SKILLRT_CACHE_DIR: cacheDir })).toBe(cold); // writes the cache
    await expect(fs.readdir(cacheDir)).resolves.toEqual([expect.stringMatching(/^catalog-.*\.cache$/)]);
    // Once the files are older than the cache trusts (SETTLE_MS), the cached state is served.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + SETTLE_MS + 5000);
      expect(await list({ SKILLRT_CACHE_DIR: cacheDir })).toBe(cold);
      expect(await list({ SKILLRT_CACHE_DIR: cacheDir })).toBe(cold);
    } finally {
      vi.useRealTimers();
    }
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

  it("counts errors of skills that still load (a Latin-1 SKILL.md) and says so on stderr", async () => {
    const latinRoot = path.join(tmp.dir, "latin-root");
    const dir = path.join(latinRoot, "latin");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(
      path.join(dir, "SKILL.md"),
      Buffer.from("---\nname: latin\ndescription: caf\u00e9 au lait\n---\nbody\n", "latin1"),
    );
    const json = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--root", root, "--root", latinRoot, "--json"], json)).toBe(0);
    const parsed = JSON.parse(json.out()) as { skills: { name: string; warnings: number; errors: number }[] };
    expect(parsed.skills.find((s) => s.name === "latin")).toMatchObject({ warnings: 0, errors: 1 });
    expect(parsed.skills.find((s) => s.name === "pdf")).toMatchObject({ warnings: 0, errors: 0 });

    const human = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--root", latinRoot], human)).toBe(0);
    expect(human.out()).toContain("latin");
    expect(human.err()).toBe("1 skill loaded with problems (1 error); run 'skillrt validate' for details.\n");
  });

  it("prints the same JSON as the documented shape with optional keys left out, for every kind of value", async () => {
    const tricky = 'quote " backslash \\ tab \t newline \n nul \u0000 esc \u001b del \u007f';
    const records = [
      record("bare"),
      record("full", {
        description: `Ünïcödé ✓ 😀 ${tricky} </script> \u2028 \u2029`,
        license: 'MIT "quoted"',
        compatibility: "Python ≥ 3.11\n",
        allowedTools: ["Bash(git:*)", "Read", ""],
        metadata: { "2": "two", b: "b", "1": "one", é: "\u0001" },
        extras: { when_to_use: "Ask\tme", tags: ["a", "b"], nested: { deep: ["x"] } },
        disableModelInvocation: true,
        userInvocable: false,
        active: true,
        diagnostics: [
          { code: "unknown-field", severity: "warning", message: "m", path: "/p" },
          { code: "unknown-field", severity: "warning", message: "m", path: "/p", line: 2 },
        ],
      }),
      record("lone-surrogates", { description: "half \ud83d pair \ude00 end", license: "" }),
      record("metadata-only", { metadata: {} }),
      record("tools-only", { allowedTools: [] }),
    ];
    const rows = records.map(toListedSkill);
    const reference = records.map(referenceListedSkill);
    expect(JSON.stringify(rows)).toBe(JSON.stringify(reference));
    expect(JSON.stringify(rows, null, 2)).toBe(JSON.stringify(reference, null, 2));
    expect(JSON.parse(JSON.stringify(rows[0]))).toEqual(reference[0]);
    expect(Object.keys(JSON.parse(JSON.stringify(rows[0])) as object)).not.toContain("license");
  });

  it("prints byte for byte the reference JSON of the catalog's records, piped and on a terminal", async () => {
    await writeSkill(
      root,
      "odd",
      [
        "name: odd",
        'description: "Ünïcödé ✓ 😀 quote \\" backslash \\\\ tab \\t bell \\a"',
        "license: Apache-2.0",
        "compatibility: Needs git",
        "allowed-tools: Bash(git:*) Read",
        "metadata:",
        '  "10": ten',
        "  author: Zoë",
        "when_to_use: Whenever.",
        "tags: [one, two]",
      ].join("\n"),
    );
    const catalog = await createCatalog({ roots: [root], cwd: tmp.dir, env: {} });
    const value = { skills: catalog.list().map(referenceListedSkill), diagnostics: catalog.diagnostics() };
    expect(value.skills.find((s) => s.name === "odd")).toMatchObject({
      license: "Apache-2.0",
      metadata: { "10": "ten" },
    });

    const piped = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--root", root, "--json"], piped)).toBe(0);
    expect(piped.out()).toBe(`${JSON.stringify(value)}\n`);
    const tty = captureIo({ cwd: tmp.dir, tty: true });
    expect(await main(["list", "--root", root, "--json"], tty)).toBe(0);
    expect(tty.out()).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it("prints a long list (written in chunks) byte for byte as the reference JSON", async () => {
    const many = path.join(tmp.dir, "many");
    await Promise.all(
      Array.from({ length: 1234 }, (_, i) =>
        writeSkill(
          many,
          `s-${i}`,
          fm(`s-${i}`, `Skill ${i}: "ünïcödé" ✓`, i % 3 === 0 ? "license: MIT" : ""),
        ),
      ),
    );
    const catalog = await createCatalog({ roots: [many], cwd: tmp.dir, env: {} });
    const value = { skills: catalog.list().map(referenceListedSkill), diagnostics: catalog.diagnostics() };
    expect(value.skills).toHaveLength(1234);
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "--root", "many", "--json"], io)).toBe(0);
    expect(io.out()).toBe(`${JSON.stringify(value)}\n`);
  });

  it("rejects stray arguments (exit 2)", async () => {
    const io = captureIo({ cwd: tmp.dir });
    expect(await main(["list", "extra"], io)).toBe(2);
    expect(io.err()).toContain("Run 'skillrt list --help' for usage.");
  });
});
