/**
 * Skills added, edited and removed on disk while `skillrt chat` or `skillrt ask` runs reach the next model
 * request without `/reload`, and the chat says what changed. Driven through the CLI's streams against a
 * loopback provider.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";

let cwd: string;
let root: string;
let server: LoopbackProvider;

async function skill(name: string, description: string): Promise<void> {
  await mkdir(path.join(root, name), { recursive: true });
  await writeFile(
    path.join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n\nBody.\n`,
  );
}

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-chat-live-"));
  root = path.join(cwd, "skills");
  await skill("stable", "Always here.");
  server = await startLoopbackProvider("openai", []);
});
afterEach(async () => {
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

/** Waits until `check` passes (polling every 10 ms, at most 10 s: a generous bound, never asserted). */
async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

const systemPrompt = (i: number): string =>
  JSON.stringify(server.requests[i]!.body.messages.filter((m: { role: string }) => m.role === "system"));

it("a SKILL.md added, edited and removed while chat runs is in (then out of) the next request's catalog", async () => {
  server.script.push(
    { text: "Answer one." },
    { text: "Answer two." },
    { text: "Answer three." },
    { text: "Answer four." },
  );
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (d) => {
    out += String(d);
  });
  const done = main(["chat", "--root", root], {
    stdin,
    stdout,
    stderr: stdout,
    cwd,
    env: { OPENAI_BASE_URL: server.baseURL, AGENT_MODEL: "loopback", HOME: cwd },
  });
  await waitFor(() => out.includes("/help for commands"));
  stdin.write("first\n");
  await waitFor(() => out.includes("Answer one."));

  await skill("fresh", "Added while the chat runs.");
  await waitFor(() => out.includes("Skills changed: added fresh."));
  stdin.write("second\n");
  await waitFor(() => out.includes("Answer two."));

  await skill("fresh", "Edited description, second version.");
  await waitFor(() => out.includes("Skills changed: edited fresh."));
  stdin.write("third\n");
  await waitFor(() => out.includes("Answer three."));

  await rm(path.join(root, "fresh"), { recursive: true });
  await waitFor(() => out.includes("Skills changed: removed fresh."));
  stdin.write("fourth\n");
  await waitFor(() => out.includes("Answer four."));
  stdin.end("/exit\n");
  expect(await done).toBe(0);

  expect(out).toContain("Skills changed: added fresh.");
  expect(out).toContain("Skills changed: edited fresh.");
  expect(out).toContain("Skills changed: removed fresh.");
  expect(server.requests).toHaveLength(4);
  expect(systemPrompt(0)).toContain("stable");
  expect(systemPrompt(0)).not.toContain("fresh");
  expect(systemPrompt(1)).toContain("Added while the chat runs.");
  expect(systemPrompt(2)).toContain("Edited description, second version.");
  expect(systemPrompt(2)).not.toContain("Added while the chat runs.");
  expect(systemPrompt(3)).not.toContain("fresh");
  expect(systemPrompt(3)).toContain("stable");
});

it("ask: a SKILL.md added during a turn is in the catalog of the turn's next step", async () => {
  // Steps that each call a tool, until a request shows the new skill; then the answer.
  const step = { toolCalls: [{ name: "skill_load", input: { name: "stable" } }], delayMs: 100 };
  server.script.push(...Array.from({ length: 60 }, () => ({ ...step })));
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (d) => {
    err += String(d);
  });
  const done = main(["ask", "--root", root, "--max-steps", "60", "check the skills"], {
    stdin: new PassThrough(),
    stdout,
    stderr,
    cwd,
    env: { OPENAI_BASE_URL: server.baseURL, AGENT_MODEL: "loopback", HOME: cwd },
  });
  await waitFor(() => server.requests.length >= 1);
  await skill("fresh", "Added during the turn.");
  await waitFor(() => server.requests.some((_, i) => systemPrompt(i).includes("Added during the turn.")));
  server.script.splice(0, server.script.length, { text: "Done." });
  expect(await done).toBe(0);
  expect(err).toContain("Skills changed: added fresh.");
  expect(systemPrompt(0)).not.toContain("fresh");
  expect(systemPrompt(server.requests.length - 1)).toContain("Added during the turn.");
});
