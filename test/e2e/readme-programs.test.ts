/**
 * The README's library programs, as a new user runs them: `npm pack`, `npm install` of the tarball in a
 * fresh directory, skills in `./skills`, `node program.ts` (Node 24 strips the types) against a scripted
 * OpenAI-compatible loopback server. The model's `skill_load` and `skill_run` calls must succeed, the
 * skill's script must really run, and the answer must print.
 */
import { spawn } from "node:child_process";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { installPacked } from "./support/packed-install.js";

const repo = path.resolve(import.meta.dirname, "../..");
const BODY_MARK = "Run the bundled script"; // csv-summary's SKILL.md body
const ANSWER = "2 rows; age ranges from 27 to 31.";

/** The ```ts blocks of the README's `## Library` section, in order. */
async function libraryPrograms(): Promise<string[]> {
  const readme = await readFile(path.join(repo, "README.md"), "utf8");
  const section = /^## Library\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
}

let dir: string;
let app: string;

beforeAll(async () => {
  ({ dir, app } = await installPacked("skillrt-readme-"));
  // As the README's Install section says: `npm pkg set type=module`.
  const manifest = JSON.parse(await readFile(path.join(app, "package.json"), "utf8")) as object;
  await writeFile(path.join(app, "package.json"), JSON.stringify({ ...manifest, type: "module" }, null, 2));
  await cp(path.join(repo, "examples", "skills", "csv-summary"), path.join(app, "skills", "csv-summary"), {
    recursive: true,
  });
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function node(
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], {
      cwd: app,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: app, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the README's library programs, installed from the packed tarball", () => {
  let server: LoopbackProvider | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it("the section opens with two programs of at most 25 lines: skillrt's agent and a ToolLoopAgent; then an agent given an executor", async () => {
    const programs = await libraryPrograms();
    expect(programs).toHaveLength(3);
    for (const program of programs) expect(program.trimEnd().split("\n").length).toBeLessThanOrEqual(25);
    expect(programs[0]).toContain("createSkillAgent");
    expect(programs[1]).toContain("new ToolLoopAgent");
    // Composed by hand: the executor is what gives the model skill_run.
    expect(programs[2]).toMatch(/createSkillAgent\(\{ model, catalog, executor: "auto" \}\)/);
  });

  it.each([0, 1, 2])("program %i loads the skill, runs its script and prints the answer", async (index) => {
    const program = (await libraryPrograms())[index] ?? "";
    const file = path.join(app, `program-${index}.ts`);
    await writeFile(file, program);
    await server?.close();
    // The toolkit program adds its own tool (`clock`): the model calls it first, in the same loop.
    const own = index === 1 ? [{ toolCalls: [{ name: "clock", input: {} }] }] : [];
    server = await startLoopbackProvider("openai", [
      ...own,
      { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
      {
        toolCalls: [
          {
            name: "skill_run",
            input: {
              name: "csv-summary",
              command: "node scripts/summarize.mjs -",
              stdin: "name,age\nann,31\nbob,27\n",
            },
          },
        ],
      },
      { text: ANSWER },
    ]);
    const result = await node(file, {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: "sk-loopback",
      AGENT_MODEL: "loopback-model",
    });
    expect(result.stderr).not.toMatch(/Error|error:/);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${ANSWER}\n`);

    const all = server.requests.map((r) => r.body);
    expect(all).toHaveLength(3 + own.length);
    expect(all[0].tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(
      expect.arrayContaining(["skill_load", "skill_run", ...(index === 1 ? ["clock"] : [])]),
    );
    const bodies = all.slice(own.length);
    const toolText = (body: { messages: Array<{ role: string; content: unknown }> }): string =>
      body.messages
        .filter((m) => m.role === "tool")
        .map((m) => String(m.content))
        .join("\n");
    expect(toolText(bodies[1])).toContain(BODY_MARK); // skill_load succeeded
    expect(toolText(bodies[2])).toContain("min=27 max=31 mean=29"); // the script really ran
    expect(toolText(bodies[2])).not.toMatch(/NoSuchTool|not configured/);
    if (index === 1) expect(toolText(bodies[0])).toMatch(/\d{4}-\d{2}-\d{2}T/); // clock ran and answered
  });
});
