/**
 * `active: true` skills end to end: `skillrt ask` (default `history` placement) must show the model the
 * body of an active skill on the very first step, as the profile's load call and its result.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const MARK = "HOUSE STYLE: answer in exactly three short sentences.";

let cwd: string;
let root: string;
let server: LoopbackProvider | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-active-"));
  root = path.join(cwd, "skills");
  await mkdir(path.join(root, "house-style"), { recursive: true });
  await writeFile(
    path.join(root, "house-style", "SKILL.md"),
    `---\nname: house-style\ndescription: The house writing style. Always on.\nactive: true\n---\n\n# House style\n\n${MARK}\n`,
  );
  await mkdir(path.join(root, "other"), { recursive: true });
  await writeFile(
    path.join(root, "other", "SKILL.md"),
    "---\nname: other\ndescription: Another skill, loaded only on demand.\n---\n\nOTHER BODY\n",
  );
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const env = (s: LoopbackProvider): Record<string, string> => ({
  OPENAI_BASE_URL: s.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
});

describe("skillrt ask with an active: true skill", () => {
  it("sends its body on the first step (history placement): a skill_load call and result after the user message", async () => {
    server = await startLoopbackProvider("openai", [{ text: "Noted." }]);
    const run = await runCli(["ask", "--root", root, "write a note"], { cwd, env: env(server) });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Noted.\n");
    const messages = server.requests[0]!.body.messages as any[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(messages[1].content).toBe("write a note");
    expect(messages[2].tool_calls).toEqual([
      expect.objectContaining({
        id: "init-load-house-style",
        function: { name: "skill_load", arguments: JSON.stringify({ name: "house-style" }) },
      }),
    ]);
    expect(String(messages[3].content)).toContain('<skill_content name="house-style">');
    expect(String(messages[3].content)).toContain(MARK);
    expect(messages[0].content).not.toContain(MARK);
    expect(JSON.stringify(messages)).not.toContain("OTHER BODY");
  });

  it("uses the profile's load tool and input shape (claude: Skill { skill })", async () => {
    server = await startLoopbackProvider("openai", [{ text: "Noted." }]);
    const run = await runCli(["ask", "--root", root, "--profile", "claude", "write a note"], {
      cwd,
      env: env(server),
    });
    expect(run.code).toBe(0);
    const messages = server.requests[0]!.body.messages as any[];
    expect(messages[2].tool_calls[0].function).toEqual({
      name: "Skill",
      arguments: JSON.stringify({ skill: "house-style" }),
    });
    expect(String(messages[3].content)).toContain(MARK);
  });
});
