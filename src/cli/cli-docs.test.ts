import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ExecConfigFile, SessionConfigFile } from "../config/skillrt-config.js";
import { describeDiagnosticCodes } from "../spec/describe-diagnostic-codes.js";
import { commands } from "./commands/index.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("docs/cli.md", () => {
  it("documents every diagnostic code of the DiagnosticCode union", async () => {
    const types = await fs.readFile(path.join(repo, "src", "spec", "types.ts"), "utf8");
    const union = /export type DiagnosticCode =([\s\S]*?);/.exec(types)?.[1] ?? "";
    const codes = [...union.matchAll(/\| "([a-z-]+)"/g)].map((m) => m[1]);
    expect(codes.length).toBeGreaterThan(30);
    const docs = await fs.readFile(path.join(repo, "docs", "cli.md"), "utf8");
    const rows = new Map(
      docs
        .split("\n")
        .map((line) => /^\| `([a-z-]+)` +\| (.*?) +\|$/.exec(line))
        .filter((m) => m !== null)
        .map((m) => [m[1], m[2]]),
    );
    const missing = codes.filter((code) => !rows.has(code ?? ""));
    expect(missing).toEqual([]);
    // The meanings are the spec module's own table, so docs and code say the same thing.
    for (const [code, meaning] of Object.entries(describeDiagnosticCodes))
      expect(rows.get(code)).toBe(meaning);
  });

  it("has a section for each command this module registers", async () => {
    const docs = await fs.readFile(path.join(repo, "docs", "cli.md"), "utf8");
    for (const name of ["list", "validate", "show", "prompt", "init", "search", "eval"]) {
      if (commands[name] !== undefined) expect(docs).toContain(`## \`skillrt ${name}\``);
    }
  });
});

describe("docs/sources.md", () => {
  it("does not call 'not yet' what its own sections document (lock files, trust, requirements, !cmd)", async () => {
    const docs = await fs.readFile(path.join(repo, "docs", "sources.md"), "utf8");
    for (const heading of ["## Requirements", "## Lock files", "## Trust", "## Shell pre-render"])
      expect(docs).toContain(`\n${heading}\n`);
    const notYet = docs.split("\n\n").filter((paragraph) => /\bnot yet\b/i.test(paragraph));
    for (const paragraph of notYet) expect(paragraph).not.toMatch(/lock|trust|requirement|pre-render/i);
  });
});

describe("README install path and CLI table", () => {
  it("lists every command in the CLI table, with eval and the evals/ folder init writes", async () => {
    const readme = await fs.readFile(path.join(repo, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("## CLI"), readme.indexOf("## Inspector"));
    expect(Object.keys(commands).filter((name) => !table.includes(`| \`skillrt ${name}`))).toEqual([]);
    expect(table).toContain("evals/cases.yaml");
    const docs = await fs.readFile(path.join(repo, "docs", "cli.md"), "utf8");
    expect(docs).toContain("evals/cases.yaml          example trigger evals");
  });

  it("installs from a packed tarball or a checkout until the package is published", async () => {
    const readme = await fs.readFile(path.join(repo, "README.md"), "utf8");
    const docs = await Promise.all(
      (await fs.readdir(path.join(repo, "docs")))
        .filter((f) => f.endsWith(".md") && f !== "architecture.md")
        .map(async (f) => [f, await fs.readFile(path.join(repo, "docs", f), "utf8")] as const),
    );
    // The one place that names them says they do not work yet.
    const unpublished = /`npm install skillrt` and `npx -y skillrt` do not\s+work/;
    expect(readme).toMatch(unpublished);
    for (const [file, text] of [["README.md", readme.replace(unpublished, "")] as const, ...docs]) {
      expect(text, file).not.toMatch(/npm (install|i) skillrt\b|npx -y skillrt/);
    }
    expect(readme).toContain("npm install ../skillrt/skillrt-0.1.0.tgz");
    expect(readme).toContain('"command": "node", "args": ["/path/to/skillrt/bin/skillrt.js", "mcp"');
    const library = readme.slice(readme.indexOf("## Library"), readme.indexOf("## Adding a skill"));
    expect(library).toContain('`"type": "module"`');
  });
});

describe("README configuration table", () => {
  it("names every key of the session and exec sections of skillrt.config.json", async () => {
    const readme = await fs.readFile(path.join(repo, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("## Library"));
    const keys = [
      ...Object.keys(SessionConfigFile.shape).map((k) => `session.${k}`),
      ...Object.keys(ExecConfigFile.shape).map((k) => `exec.${k}`),
    ];
    expect(keys.filter((key) => !table.includes(`\`${key}\``))).toEqual([]);
  });
});

describe("docs after merges", () => {
  it("README.md and docs/*.md hold no merge conflict markers", async () => {
    const files = [
      "README.md",
      ...(await fs.readdir(path.join(repo, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
    ];
    for (const file of files) {
      const text = await fs.readFile(path.join(repo, file), "utf8");
      expect(text, file).not.toMatch(/^(<{7} |={7}$|>{7} )/m);
    }
  });
});
