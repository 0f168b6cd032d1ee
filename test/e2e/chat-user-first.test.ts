/**
 * `skillrt chat` against the Anthropic messages wire format: skills loaded by the user before the first
 * message (`/skill NAME`, `$NAME`) must not make the conversation start with an assistant message, which
 * Anthropic's API rejects. Their load call and result follow the first user message.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";

const ALPHA = "ALPHA BODY: follow the alpha checklist.";
const HOUSE = "HOUSE STYLE: answer in three sentences.";

let cwd: string;
let root: string;
let server: LoopbackProvider;

async function skill(name: string, description: string, body: string, extra = ""): Promise<void> {
  await mkdir(path.join(root, name), { recursive: true });
  await writeFile(
    path.join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`,
  );
}

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-chat-user-first-"));
  root = path.join(cwd, "skills");
  await skill("alpha", "Alpha checklists.", ALPHA);
  server = await startLoopbackProvider("anthropic", []);
});
afterEach(async () => {
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

async function chat(lines: string[]): Promise<{ code: number; out: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (d) => (out += String(d)));
  stdin.end(`${lines.join("\n")}\n`);
  const code = await main(["chat", "--root", root], {
    stdin,
    stdout,
    stderr: stdout,
    cwd,
    env: {
      ANTHROPIC_BASE_URL: server.baseURL,
      ANTHROPIC_API_KEY: "sk-ant-loopback",
      AGENT_MODEL: "claude-loopback",
      HOME: cwd,
    },
  });
  return { code, out };
}

interface Block {
  type: string;
  text?: string;
  name?: string;
  id?: string;
  tool_use_id?: string;
  input?: unknown;
  content?: unknown;
}
type WireMessage = { role: string; content: string | Block[] };

const messagesOf = (i: number): WireMessage[] => server.requests[i]!.body.messages;
const blocks = (m: WireMessage | undefined): Block[] =>
  typeof m?.content === "string" ? [{ type: "text", text: m.content }] : (m?.content ?? []);
const textOf = (m: WireMessage | undefined): string =>
  blocks(m)
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("");

describe("skillrt chat (Anthropic): user loads before the first message", () => {
  it("/skill NAME then a message: the user's message comes first, then the load call and the body", async () => {
    server.script.push({ text: "Done." }, { text: "Again." });
    const { code, out } = await chat(["/skill alpha", "check my list", "and again", "/exit"]);
    expect(code).toBe(0);
    expect(out).toContain("+ loaded alpha");
    expect(out).toContain("Done.");
    const first = messagesOf(0);
    expect(first[0]!.role).toBe("user");
    expect(textOf(first[0])).toBe("check my list");
    expect(first[1]!.role).toBe("assistant");
    expect(blocks(first[1])[0]).toMatchObject({
      type: "tool_use",
      name: "skill_load",
      input: { name: "alpha" },
    });
    expect(JSON.stringify(blocks(first[2]).filter((b) => b.type === "tool_result"))).toContain(ALPHA);
    // The second turn sends the first one unchanged (prompt caches keep hitting).
    const second = messagesOf(1);
    expect(second[0]!.role).toBe("user");
    expect(JSON.stringify(second.slice(0, first.length))).toBe(JSON.stringify(first));
    expect(JSON.stringify(second)).toContain("and again");
  });

  it("$NAME in the first message, with an active: true skill: user, active load, then the user's load", async () => {
    await skill("house", "House style.", HOUSE, "active: true\n");
    server.script.push({ text: "Done." });
    const { code } = await chat(["use $alpha on my list", "/exit"]);
    expect(code).toBe(0);
    const sent = messagesOf(0);
    expect(sent[0]!.role).toBe("user");
    expect(textOf(sent[0])).toContain("use $alpha on my list");
    const uses = sent.flatMap((m) => blocks(m).filter((b) => b.type === "tool_use"));
    expect(uses.map((b) => b.input)).toEqual([{ name: "house" }, { name: "alpha" }]);
    const results = JSON.stringify(sent.flatMap((m) => blocks(m).filter((b) => b.type === "tool_result")));
    expect(results).toContain(HOUSE);
    expect(results).toContain(ALPHA);
  });
});
