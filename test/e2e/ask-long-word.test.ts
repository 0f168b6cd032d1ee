/**
 * `skillrt ask` with a skill whose body is one 400,000-letter word (a body hostile to BPE, which held `ask`
 * for 126 s before its first output while the tokenizer merged the word in quadratic time): the load is
 * counted and answered (refused for its size, naming its token count) and the turn ends with the model's
 * answer well within the test's timeout.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const LETTERS = 400_000;
let dir: string;
let server: LoopbackProvider | undefined;

beforeAll(async () => {
  assertBuilt();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-ask-long-word-"));
  let x = 4242;
  let word = "";
  for (let i = 0; i < LETTERS; i++) {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    word += String.fromCharCode(97 + ((x >> 8) % 26));
  }
  const skill = path.join(dir, "skills", "long-word");
  await fs.mkdir(skill, { recursive: true });
  await fs.writeFile(
    path.join(skill, "SKILL.md"),
    `---\nname: long-word\ndescription: A skill whose body is one very long word.\n---\n\n${word}\n`,
  );
});

afterAll(async () => {
  await server?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("skillrt ask with a skill body of one 400,000-letter word", () => {
  it("counts the body, tells the model it is over budget, and prints the answer", async () => {
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "long-word" } }] },
      { text: "That skill is too large to load." },
    ]);
    const run = await runCli(["ask", "--root", path.join(dir, "skills"), "use the long-word skill"], {
      cwd: dir,
      env: { ...loopbackEnv(server), HOME: dir, SKILLRT_CACHE: "0" },
      timeoutMs: 55_000,
    });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("That skill is too large to load.\n");
    const toolText = JSON.stringify(server.requests[1]?.body.messages ?? []);
    expect(toolText).toMatch(/Skill 'long-word' is [\d,]+ tokens, over the [\d,]+-token budget/);
  }, 60_000);
});
