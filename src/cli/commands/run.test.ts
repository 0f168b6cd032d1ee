import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
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

/** `skillrt trust` of the project: its config file may then name variables and loosen the executor. */
async function trustProject(): Promise<void> {
  const trusted = await runCli(["trust", tmp.dir], { cwd: tmp.dir, env: { HOME: tmp.dir } });
  expect(trusted.out).toContain("skillrt.config.json");
}

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
    // Untrusted, the project's file names no host variable: the run sees no TOKEN, and is told why.
    const untrusted = await run(["report", "--root", "skills", "--", 'echo "t=$TOKEN"'], {
      HOST_TOKEN: "very-secret-value-123",
    });
    expect(untrusted.out).toBe("t=\n");
    expect(untrusted.err).toContain("skills.report.env.TOKEN (would read environment variables)");
    await trustProject();
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

  it("--save keeps outputs as versioned artifacts under .skillrt/artifacts; --input artifact:// reads them", async () => {
    const save = (text: string) =>
      run([
        "report",
        "--root",
        "skills",
        "--output",
        "out/note.txt",
        "--save",
        "--json",
        "--",
        `echo ${text} > "$OUTPUT_DIR/note.txt"`,
      ]);
    const first = JSON.parse((await save("first")).out);
    expect(first.outputFiles[0].artifact).toEqual({ name: "out/note.txt", version: 1 });
    const second = JSON.parse((await save("second")).out);
    expect(second.outputFiles[0].artifact).toEqual({ name: "out/note.txt", version: 2 });

    const read = (spec: string) =>
      run(["report", "--root", "skills", "--input", spec, "--", 'cat "$WORK_DIR/inputs/note.txt"']);
    expect((await read("artifact://out/note.txt")).out).toBe("second\n");
    expect((await read("artifact://out/note.txt@v1")).out).toBe("first\n");
    const missing = await read("artifact://out/other.txt");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("artifact 'out/other.txt' not found");
    expect((await run(["report", "--root", "skills", "--save", "--", "true"])).code).toBe(2);
  });

  it("applies the config's exec section: denied commands, timeout, executor and host directories", async () => {
    await mkdir(path.join(tmp.dir, "data"));
    await writeFile(path.join(tmp.dir, "data", "in.csv"), "a,b\n");
    await writeFile(path.join(tmp.dir, "top.csv"), "x\n");
    await writeFile(
      path.join(tmp.dir, "skillrt.config.json"),
      JSON.stringify({
        exec: { denyCommands: ["curl", "rm"], executor: "local", timeoutSeconds: 0.3, hostDirs: ["data"] },
      }),
    );
    await trustProject();
    const denied = await run(["report", "--root", "skills", "--", "rm", "-rf", "scripts"]);
    expect(denied.code).toBe(1);
    expect(denied.err).toMatch(/rm/);
    expect(denied.err).toMatch(/not allowed|denied|refused/i);
    const shell = await run(["report", "--root", "skills", "--", "echo hi && curl http://127.0.0.1:1"]);
    expect(shell.code).toBe(1);
    expect(shell.out).toBe("");

    const slow = JSON.parse((await run(["report", "--root", "skills", "--json", "--", "sleep", "30"])).out);
    expect(slow).toMatchObject({ timedOut: true, executor: "local" });

    const inside = await run([
      "report",
      "--root",
      "skills",
      "--input",
      `host://${path.join(tmp.dir, "data", "in.csv")}`,
      "--",
      'cat "$WORK_DIR/inputs/in.csv"',
    ]);
    expect(inside.out).toBe("a,b\n");
    const outside = await run([
      "report",
      "--root",
      "skills",
      "--input",
      `host://${path.join(tmp.dir, "top.csv")}`,
      "--",
      "true",
    ]);
    expect(outside.code).toBe(1);
  });

  it("--input takes a plain path relative to the current directory (or an absolute one)", async () => {
    await mkdir(path.join(tmp.dir, "data"));
    await writeFile(path.join(tmp.dir, "data", "in.csv"), "a,b\n");
    const cat = (spec: string) =>
      run(["report", "--root", "skills", "--input", spec, "--", 'cat "$WORK_DIR/inputs/in.csv"']);
    for (const spec of ["data/in.csv", "./data/in.csv", path.join(tmp.dir, "data", "in.csv")]) {
      const r = await cat(spec);
      expect({ spec, code: r.code, out: r.out }).toEqual({ spec, code: 0, out: "a,b\n" });
    }
    const missing = await cat("data/none.csv");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("none.csv");
  });

  it("--output alone is refused with the fix (the files would be lost); with --keep they stay in the workspace", async () => {
    const make = ["--", "python3", "scripts/make.py", "x"];
    const alone = await run(["report", "--root", "skills", "--output", "out/*.md", ...make]);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain(
      "--output only collects files from the workspace, which is deleted after the run: add --save",
    );
    const kept = await run(["report", "--root", "skills", "--output", "out/*.md", "--keep", ...make]);
    expect(kept.code).toBe(0);
    expect(kept.err).toContain("output: out/r.md (text/markdown, 6 bytes)");
    const workspace = /workspace: (.+)/.exec(kept.err)?.[1] ?? "";
    expect(await readFile(path.join(workspace, "out", "r.md"), "utf8")).toBe("# hi x");
    await rm(workspace, { recursive: true, force: true });
  });

  it("runs an untrusted project skill: run does not ask for trust, and its help says so", async () => {
    await writeSkill(
      path.join(tmp.dir, ".agents", "skills"),
      "hello",
      fm("hello", "Says hello."),
      "# Hello\n",
      {
        "scripts/hi.sh": "echo HELLO-UNTRUSTED\n",
      },
    );
    const r = await run(["hello", "--", "sh", "scripts/hi.sh"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe("HELLO-UNTRUSTED\n");
    const help = await runCli(["run", "--help"], { cwd: tmp.dir, env: { HOME: tmp.dir } });
    expect(help.out).toContain(
      "Trust: run does not ask for skillrt trust. You name the skill and the command",
    );
  });
});
