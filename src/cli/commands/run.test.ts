import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../__fixtures__/run-cli.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await makeTempDir();
  await writeSkill(path.join(tmp.dir, "skills"), "report", fm("report", "Make reports."), "# Report\n", {
    "scripts/make.py":
      'import os, sys\nopen(os.path.join(os.environ["OUTPUT_DIR"], "r.md"), "w").write("# hi " + " ".join(sys.argv[1:]))\nprint("made")\n',
  });
});
afterEach(async () => {
  await tmp.cleanup();
});

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(["run", ...args], { cwd: tmp.dir, env: { HOME: tmp.dir, ...env } });

describe("skillrt run", () => {
  it("runs a command in the skill and prints JSON with collected outputs", async () => {
    const r = await run([
      "report",
      "--root",
      "skills",
      "--output",
      "out/*.md",
      "--json",
      "--",
      "python3",
      "scripts/make.py",
      "a",
      "b",
    ]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json).toMatchObject({
      exitCode: 0,
      stdout: "made\n",
      stderr: "",
      timedOut: false,
      truncated: { stdout: false, stderr: false },
    });
    expect(json.outputFiles).toEqual([
      { name: "out/r.md", size: 8, mimeType: "text/markdown", content: "# hi a b" },
    ]);
    expect(["sandbox", "local"]).toContain(json.executor);
  });

  it("returns the command's exit code, runs shell strings, and redacts configured secrets", async () => {
    await writeFile(
      path.join(tmp.dir, "skillrt.config.json"),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: literal ${…} placeholder syntax under test
      JSON.stringify({ skills: { report: { env: { TOKEN: "${env:HOST_TOKEN}" } } } }),
    );
    const r = await run(["report", "--root", "skills", "--", 'echo "t=$TOKEN"; exit 7'], {
      HOST_TOKEN: "very-secret-value-123",
    });
    expect(r.code).toBe(7);
    expect(r.out).toBe("t=[redacted]\n");
  });

  it("exit 1 for an unknown skill or a refused run, 2 for usage errors", async () => {
    expect((await run(["nope", "--root", "skills", "--", "true"])).code).toBe(1);
    expect((await run(["report", "--root", "skills", "--cwd", "../..", "--", "true"])).code).toBe(1);
    expect((await run(["report"])).code).toBe(2);
    expect((await run(["report", "--executor", "vm", "--", "true"])).code).toBe(2);
    expect((await run(["report", "--timeout", "-1", "--", "true"])).code).toBe(2);
  });

  it("kills a command at --timeout", async () => {
    const r = await run(["report", "--root", "skills", "--timeout", "0.3", "--json", "--", "sleep", "30"]);
    expect(JSON.parse(r.out).timedOut).toBe(true);
    expect(r.code).not.toBe(0);
  });
});
