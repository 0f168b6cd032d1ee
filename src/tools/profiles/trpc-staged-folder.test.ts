/**
 * trpc's staged skill folder in the real bubblewrap sandbox (and with local runs): `out`, `work`, `inputs` and a writable
 * `.venv` in the skill folder, so trpc's own documented command (`python3 scripts/fib.py 10 > out/fib.txt`,
 * run in the skill folder) works, and `output_files`, `primary_output`, `save_as_artifacts` and
 * `artifact_prefix` return what it wrote.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillTree } from "../../context/__fixtures__/skill-tree.js";
import { createSkillAgent } from "../../engine/create-skill-agent.js";
import { createFsArtifactStore } from "../../exec/artifact-store.js";
import { probeSandbox } from "../../exec/sandbox-executor.js";
import { scriptedModel } from "../../test-kit.js";

let tree: SkillTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const FIB = [
  "import sys",
  "n = int(sys.argv[1])",
  "a, b = 0, 1",
  "for _ in range(n):",
  "    a, b = b, a + b",
  "print(a)",
  "",
].join("\n");

const run = (input: Record<string, unknown>) => ({
  toolCalls: [{ name: "skill_run", input: JSON.stringify({ skill: "fib", ...input }) }],
});

const kinds = probeSandbox().ok ? (["sandbox", "local"] as const) : (["local"] as const);

describe("trpc profile: the staged skill folder", () => {
  it.each(kinds)(
    "%s: python3 scripts/fib.py 10 > out/fib.txt in the skill folder; output_files, primary_output and artifacts return it",
    async (kind) => {
      tree = await makeSkillTree([
        {
          name: "fib",
          description: "Fibonacci numbers.",
          body: "Run `python3 scripts/fib.py N > out/fib.txt`.",
          files: { "scripts/fib.py": FIB },
        },
      ]);
      const artifacts = path.join(tree.root, "artifacts");
      const model = scriptedModel([
        { toolCalls: [{ name: "skill_load", input: '{"skill":"fib"}' }] },
        run({
          command: "python3 scripts/fib.py 10 > out/fib.txt",
          output_files: ["out/*.txt"],
          save_as_artifacts: true,
          artifact_prefix: "fib-run/",
        }),
        // No outputs asked: out/ is scanned for the primary output, as trpc does.
        run({ command: "python3 scripts/fib.py 12 > out/fib12.txt && ls -a" }),
        // work/ and inputs/ lead to the workspace; .venv is writable and stays across runs.
        run({
          command:
            "echo kept > work/note.txt && cat ../../work/note.txt && ls inputs/ && mkdir -p .venv/bin && " +
            "printf '#!/bin/sh\\necho venv-tool\\n' > .venv/bin/venv-tool && chmod +x .venv/bin/venv-tool",
        }),
        run({ command: "venv-tool; touch scripts/new.txt" }),
        run({
          command:
            "python3 -m venv --without-pip .venv && .venv/bin/python -c 'import sys; print(sys.prefix != sys.base_prefix)'",
        }),
        { text: "55" },
      ]);
      const agent = await createSkillAgent({
        model,
        catalog: tree.catalog,
        cwd: tree.root,
        profile: "trpc",
        executor: kind,
        run: { environment: { artifactStore: createFsArtifactStore(artifacts) } },
      });
      try {
        const result = await agent.send("fib(10) into a file");
        expect(result.text).toBe("55");
        const outputs = result.toolCalls
          .slice(1)
          .map((c) => JSON.parse(String(c.output)) as Record<string, unknown>);
        const first = outputs[0] as {
          exit_code: number;
          stderr: string;
          output_files: Array<{ name: string; content: string }>;
          primary_output?: { name: string; content: string };
          artifact_files: Array<{ name: string; version: number }>;
        };
        expect(first.stderr).toBe("");
        expect(first.exit_code).toBe(0);
        expect(first.output_files.map((f) => [f.name, f.content])).toEqual([["out/fib.txt", "55\n"]]);
        expect(first.primary_output).toMatchObject({ name: "out/fib.txt", content: "55\n" });
        expect(first.artifact_files.map((a) => a.name)).toEqual(["fib-run/out/fib.txt"]);
        expect(await readdir(artifacts, { recursive: true })).toEqual(
          expect.arrayContaining([expect.stringContaining("fib-run%2Fout%2Ffib%2Etxt")]),
        );

        const second = outputs[1] as { stdout: string; primary_output?: { name: string; content: string } };
        expect(second.primary_output).toMatchObject({ name: "out/fib.txt", content: "55\n" });
        // The folder holds the skill's files and trpc's four entries.
        expect(second.stdout.split("\n")).toEqual(
          expect.arrayContaining([".venv", "SKILL.md", "inputs", "out", "scripts", "work"]),
        );

        const third = outputs[2] as { exit_code: number; stdout: string; stderr: string };
        expect(third.stderr).toBe("");
        expect(third.stdout).toBe("kept\n");
        expect(third.exit_code).toBe(0);

        // .venv/bin is on PATH (trpc's exports) and survives runs; the skill's own files stay read-only.
        const fourth = outputs[3] as { stdout: string; stderr: string; exit_code: number };
        expect(fourth.stdout).toBe("venv-tool\n");
        if (kind === "sandbox") {
          expect(fourth.stderr).toMatch(/Read-only file system|Permission denied/);
          expect(fourth.exit_code).not.toBe(0);
        }
        // A real virtualenv in .venv.
        const fifth = outputs[4] as { stdout: string; stderr: string; exit_code: number };
        expect(fifth.stderr).toBe("");
        expect(fifth.stdout).toBe("True\n");
      } finally {
        await agent.close();
      }
    },
  );
});
