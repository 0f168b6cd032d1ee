/**
 * Skills invoked from `skillrt chat` as slash commands (`/NAME args`, `/skill NAME args`): the skill is
 * loaded with its arguments substituted and a turn runs with it; tab completion offers the skills the user
 * may invoke. Driven through the chat's streams against a loopback provider.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let cwd: string;
let root: string;
let server: LoopbackProvider;

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-chat-slash-"));
  root = path.join(cwd, "skills");
  await cp(path.join(examples, "csv-summary"), path.join(root, "csv-summary"), { recursive: true });
  await mkdir(path.join(root, "greet"));
  await writeFile(
    path.join(root, "greet", "SKILL.md"),
    "---\nname: greet\ndescription: Greets someone.\n---\n\nGreet $0 warmly, then say: $ARGUMENTS.\n",
  );
  await mkdir(path.join(root, "model-only"));
  await writeFile(
    path.join(root, "model-only", "SKILL.md"),
    "---\nname: model-only\ndescription: Only the model loads this.\nuser-invocable: false\n---\n\nSecret steps.\n",
  );
  server = await startLoopbackProvider("openai", []);
});
afterEach(async () => {
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

async function chat(lines: string[]): Promise<{ code: number; out: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (d) => {
    out += String(d);
  });
  stdin.end(`${lines.join("\n")}\n`);
  const code = await main(["chat", "--root", root], {
    stdin,
    stdout,
    stderr: stdout,
    cwd,
    env: { OPENAI_BASE_URL: server.baseURL, AGENT_MODEL: "loopback", HOME: cwd },
  });
  return { code, out };
}

type Message = { role: string; content: unknown };
const messages = (i: number): Message[] => server.requests[i]!.body.messages;
const text = (m: Message): string => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

describe("skillrt chat: slash skills run a turn", () => {
  it("/csv-summary data.csv: the request holds the substituted body, the answer stays in the history", async () => {
    server.script.push({ text: "The file has 3 rows." }, { text: "You are welcome." });
    const { code, out } = await chat(["/csv-summary data.csv", "thanks", "/exit"]);
    expect(code).toBe(0);
    expect(out).toContain("+ loaded csv-summary");
    expect(out).toContain("The file has 3 rows.");
    expect(server.requests).toHaveLength(2);
    // First request: the user's command, then the load call whose result is the body with the arguments.
    const first = messages(0).filter((m) => m.role !== "system");
    expect(first.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(text(first[0]!)).toBe("/csv-summary data.csv");
    expect(text(first[2]!)).toContain("# CSV summary");
    // csv-summary has no $ARGUMENTS placeholder: the arguments are appended (as Claude Code does).
    expect(text(first[2]!)).toContain("ARGUMENTS: data.csv");
    // Second request: the same history, plus the model's answer and the next message.
    const second = messages(1).filter((m) => m.role !== "system");
    expect(JSON.stringify(second.slice(0, 3))).toBe(JSON.stringify(first));
    expect(second[3]).toMatchObject({ role: "assistant" });
    expect(text(second[3]!)).toContain("The file has 3 rows.");
    expect(text(second[4]!)).toBe("thanks");
  });

  it("/skill NAME args substitutes $0 and $ARGUMENTS and runs a turn; /skill NAME alone only loads", async () => {
    server.script.push({ text: "Hello Ada!" });
    const { code, out } = await chat(["/skill greet Ada and Bob", "/skill csv-summary", "/exit"]);
    expect(code).toBe(0);
    expect(out).toContain("Hello Ada!");
    expect(server.requests).toHaveLength(1);
    const sent = JSON.stringify(messages(0));
    expect(sent).toContain("Greet Ada warmly, then say: Ada and Bob.");
    expect(sent).toContain('"/greet Ada and Bob"');
    expect(out).toContain("+ loaded csv-summary");
  });

  it("a user-invocable: false skill is refused as /NAME and runs no turn", async () => {
    const { out } = await chat(["/model-only go", "/exit"]);
    expect(out).toContain("Skill 'model-only' cannot be loaded from the chat");
    expect(server.requests).toHaveLength(0);
  });
});

describe("skillrt chat on a terminal: tab completion", () => {
  it("completes /NAME for invocable skills, never a user-invocable: false one", async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    let out = "";
    stdout.on("data", (d) => {
      out += String(d);
    });
    const done = main(["chat", "--root", root], {
      stdin,
      stdout,
      stderr: stdout,
      cwd,
      env: { OPENAI_BASE_URL: server.baseURL, HOME: cwd, NO_COLOR: "1" },
    });
    const waitFor = async (check: () => boolean): Promise<void> => {
      for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    };
    await waitFor(() => out.includes("/help for commands"));
    // Readline completes only on a Tab that ends its chunk (a pasted Tab is text): write keys one by one.
    const keys = async (...chunks: string[]): Promise<void> => {
      for (const chunk of chunks) {
        stdin.write(chunk);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // One candidate: the line is completed in place.
    await keys("/gr", "\t");
    await waitFor(() => out.includes("/greet"));
    stdin.write("\u0015"); // Ctrl-U: clear the line
    // Several: readline lists them (twice Tab); the model-only skill is not among them.
    const before = out.length;
    await keys("/", "\t", "\t");
    await waitFor(() => out.slice(before).includes("/csv-summary"));
    stdin.write("\u0015/exit\r");
    expect(await done).toBe(0);
    expect(out).toContain("/greet");
    const listing = out.slice(before);
    expect(listing).toContain("/csv-summary");
    expect(listing).toContain("/skills");
    expect(listing).not.toContain("model-only");
  });
});

describe("skillrt chat: /context", () => {
  it("counts agent_run among the tool definitions when agents are defined", async () => {
    await mkdir(path.join(cwd, "agents"));
    await writeFile(
      path.join(cwd, "agents", "researcher.md"),
      "---\nname: researcher\ndescription: Researches topics.\n---\nYou research.\n",
    );
    const { code, out } = await chat(["/context", "/exit"]);
    expect(code).toBe(0);
    const definitions = out.slice(out.indexOf("Tool definitions"));
    expect(definitions).toMatch(/\n {2}agent_run \d+/);
    expect(definitions).toMatch(/\n {2}skill_load \d+/);
  });
});

describe("skillrt chat: a context: fork skill the user runs", () => {
  it("/deep-research tides: a context: fork skill is shown running as a child agent, not as loaded", async () => {
    await mkdir(path.join(root, "deep-research"));
    await writeFile(
      path.join(root, "deep-research", "SKILL.md"),
      "---\nname: deep-research\ndescription: Researches in depth.\ncontext: fork\n---\n\nResearch $ARGUMENTS in depth.\n",
    );
    // The child's answer, then the parent's turn on the command.
    server.script.push({ text: "Tides follow the moon." }, { text: "In short: the moon." });
    const { code, out } = await chat(["/deep-research tides", "/exit"]);
    expect(code).toBe(0);
    expect(out).toContain("⇢ agent general-purpose: Research tides in depth.");
    expect(out).toMatch(/⇠ agent general-purpose: 1 steps/);
    expect(out).toContain("+ ran deep-research in agent general-purpose");
    expect(out).not.toContain("+ loaded deep-research");
    expect(out).toContain("In short: the moon.");
    expect(JSON.stringify(messages(0))).toContain("Research tides in depth.");
    expect(JSON.stringify(messages(1))).toContain("Tides follow the moon.");
  });
});
