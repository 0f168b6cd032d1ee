/**
 * skillrt as a SEP-2640 client against the official MCP conformance suite: each of the suite's client
 * scenarios of the Skills Extension runs `skillrt ask` (through support/conformance-ask-client.mjs, a
 * fresh HOME each: no verified file cached by another scenario) against the suite's own server, and every
 * check passes: no file fetched on listing, and a SKILL.md failing digest, size or frontmatter
 * verification leaves the whole skill unused (its other file never fetched).
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "./support/run-cli.js";

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "../..");
const conformance = path.join(
  repo,
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);
const wrapper = path.join(repo, "test", "e2e", "support", "conformance-ask-client.mjs");

const SCENARIOS = [
  "sep-2640-client-no-prefetch",
  "sep-2640-client-verify-digest",
  "sep-2640-client-verify-size",
  "sep-2640-client-verify-frontmatter",
];

beforeAll(() => assertBuilt());

describe("skillrt ask against the MCP conformance suite's SEP-2640 client scenarios", () => {
  it.each(SCENARIOS)(
    "passes %s",
    async (scenario) => {
      const cwd = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-conformance-client-"));
      try {
        const { stdout, stderr } = await run(
          process.execPath,
          [conformance, "client", "--scenario", scenario, "--command", `"${process.execPath}" "${wrapper}"`],
          {
            cwd,
            env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: cwd, NO_COLOR: "1" },
            timeout: 90_000,
          },
        );
        // The client runner prints its results to stderr (the server runner to stdout).
        const output = `${stdout}\n${stderr}`;
        const result = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
        expect(result, output).not.toBeNull();
        const [, passed, total, failed, warnings] = result!.map(Number);
        expect({ passed, failed, warnings }).toEqual({ passed: total, failed: 0, warnings: 0 });
        expect(total).toBeGreaterThan(0);
      } finally {
        await fs.rm(cwd, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
