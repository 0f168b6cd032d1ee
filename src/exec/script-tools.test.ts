import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillRecord } from "../catalog/types.js";
import { renderRunText } from "../tools/render-run-result.js";
import { toSkillRunOutput } from "../tools/skill-run-output.js";
import { makeSkill, makeTempDir } from "./__fixtures__/make-skill.js";
import { createExecutor } from "./create-executor.js";
import { createWorkspace } from "./create-workspace.js";
import type { SkillRunResult } from "./run-skill-command.js";
import { listScriptTools, runScriptTool } from "./script-tools.js";
import type { Workspace } from "./workspace.js";

/** What the model reads of a run (the tools layer's rendering). */
function modelText(result: SkillRunResult): string {
  return result.status === "refused" ? result.message : renderRunText(toSkillRunOutput(result));
}

describe("script tools", () => {
  let skill: SkillRecord;
  let base: string;
  let ws: Workspace;
  beforeAll(async () => {
    skill = await makeSkill("pdf-tools", {
      "scripts/extract_text.py":
        '#!/usr/bin/env python3\n"""Extract the text of a PDF page.\n\nMore details here."""\nimport sys\nprint("args:", sys.argv[1:], "stdin:", sys.stdin.read().strip())\n',
      "scripts/count.js":
        "/**\n * Count the lines on stdin.\n */\nlet n=0;process.stdin.on('data',d=>{n+=String(d).split('\\n').length-1});process.stdin.on('end',()=>console.log('lines', n, process.argv.slice(2).join(',')));\n",
      "scripts/hello.sh":
        '#!/bin/bash\n# Say hello to someone.\n# Second line of the comment.\necho "hello $1"\n',
      "scripts/plain.sh": "echo plain\n",
      "scripts/.hidden": "x",
    });
    base = await makeTempDir();
    ws = await createWorkspace({ baseDir: base });
  });
  afterAll(async () => {
    await ws.dispose();
    await rm(base, { recursive: true, force: true });
    await rm(path.dirname(skill.dir), { recursive: true, force: true });
  });

  it("lists one tool per script with docstring descriptions and interpreters", async () => {
    const tools = await listScriptTools(skill);
    expect(tools.map((t) => [t.toolName, t.description, t.interpreter])).toEqual([
      ["pdf-tools__count", "Count the lines on stdin.", ["node"]],
      ["pdf-tools__extract_text", "Extract the text of a PDF page.", ["python3"]],
      ["pdf-tools__hello", "Say hello to someone. Second line of the comment.", ["/bin/bash"]],
      ["pdf-tools__plain", "Run scripts/plain.sh of skill pdf-tools", ["bash"]],
    ]);
    expect(tools.every((t) => /^[a-zA-Z0-9_-]{1,64}$/.test(t.toolName))).toBe(true);
    expect(
      await listScriptTools({ name: "x".repeat(80), dir: skill.dir }).then((t) => t[0]?.toolName.length),
    ).toBe(64);
  });

  it("offers entry points only: declared in SKILL.md, executable, #! or a Python main guard; not helper modules", async () => {
    const helpers = await makeSkill("helpers", {});
    const scripts = path.join(helpers.dir, "scripts");
    await mkdir(scripts);
    const files: Record<string, string> = {
      "utils.py": "def shared():\n    return 1\n",
      "__init__.py": "",
      "main_guard.py":
        'from scripts.utils import shared\n\nif __name__ == "__main__":\n    print(shared())\n',
      "named.py": "print('named in SKILL.md')\n",
      "shebang.py": "#!/usr/bin/env python3\nprint(1)\n",
      "lib.js": "export const x = 1;\n",
      "tool.js": "console.log(1);\n",
    };
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(scripts, name), text);
    await chmod(path.join(scripts, "tool.js"), 0o755);
    await writeFile(
      path.join(helpers.dir, "SKILL.md"),
      "---\nname: helpers\ndescription: d\n---\nRun `python3 scripts/named.py`.\n",
    );
    try {
      const tools = await listScriptTools(helpers);
      expect(tools.map((t) => t.scriptPath)).toEqual([
        "scripts/main_guard.py",
        "scripts/named.py",
        "scripts/shebang.py",
        "scripts/tool.js",
      ]);
    } finally {
      await rm(path.dirname(helpers.dir), { recursive: true, force: true });
    }
  });

  it("runs a script tool with args and stdin in the workspace", async () => {
    const tools = await listScriptTools(skill);
    const { executor } = createExecutor();
    const context = {
      environment: { workspace: ws, executor },
      lookup: { getSkill: (n: string) => (n === skill.name ? skill : undefined) },
    };
    const py = tools.find((t) => t.toolName === "pdf-tools__extract_text")!;
    const r = await runScriptTool(py, { args: ["--page", "2"], stdin: "hi there\n" }, context);
    expect(r).toMatchObject({
      status: "ran",
      exitCode: 0,
      stdout: "args: ['--page', '2'] stdin: hi there\n",
    });
    const js = tools.find((t) => t.toolName === "pdf-tools__count")!;
    expect(await runScriptTool(js, { args: ["a", "b"], stdin: "1\n2\n3\n" }, context)).toMatchObject({
      stdout: "lines 3 a,b\n",
    });
    const sh = tools.find((t) => t.toolName === "pdf-tools__hello")!;
    const hello = await runScriptTool(sh, { args: ["world"] }, context);
    expect(modelText(hello)).toContain("hello world");
    expect((await runScriptTool(sh, { args: [1] }, context)).status).toBe("refused");
  });
});
