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
    for (const name of ["list", "validate", "show", "prompt", "init", "search"]) {
      if (commands[name] !== undefined) expect(docs).toContain(`## \`skillrt ${name}\``);
    }
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
