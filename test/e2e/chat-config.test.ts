/**
 * `skillrt chat` with `skillrt.config.json` and the skill flags: user-invocable checks, active skills,
 * allow/deny filters, the default catalog budget and the `/skills` costs, driven through the REPL streams.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";

let cwd: string;
let root: string;
let server: LoopbackProvider;

async function skill(
  name: string,
  description: string,
  extra = "",
  body = `# ${name}\n\nFollow the ${name} steps.\n`,
) {
  await mkdir(path.join(root, name), { recursive: true });
  await writeFile(
    path.join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`,
  );
}

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-chat-config-"));
  root = path.join(cwd, "skills");
  server = await startLoopbackProvider("openai", []);
});
afterEach(async () => {
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

async function chat(lines: string[], extra: string[] = []): Promise<{ code: number; out: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  for (const stream of [stdout, stderr]) stream.on("data", (d) => (out += String(d)));
  stdin.end(`${lines.join("\n")}\n`);
  const code = await main(["chat", "--root", root, ...extra], {
    stdin,
    stdout,
    stderr,
    cwd,
    env: { OPENAI_BASE_URL: server.baseURL, AGENT_MODEL: "loopback", HOME: cwd },
  });
  return { code, out };
}

const config = (value: unknown) => writeFile(path.join(cwd, "skillrt.config.json"), JSON.stringify(value));
const systemPrompt = (i: number): string =>
  JSON.stringify(server.requests[i]!.body.messages.filter((m: { role: string }) => m.role === "system"));

describe("skillrt chat: who may load what", () => {
  it("refuses /skill NAME, /NAME and $NAME for a user-invocable: false skill; the model still sees it", async () => {
    await skill("alpha", "Alpha things.");
    await skill("nouser", "Only the model loads this.", "user-invocable: false\n");
    server.script.push({ text: "ok" });
    const { code, out } = await chat([
      "/skill nouser",
      "/nouser now",
      "please use $nouser",
      "/skills",
      "/exit",
    ]);
    expect(code).toBe(0);
    const refusals = out.match(
      /Skill 'nouser' cannot be loaded from the chat: it sets 'user-invocable: false'/g,
    );
    expect(refusals).toHaveLength(2);
    expect(out).not.toContain("+ loaded nouser");
    expect(out).toMatch(/\[○\] nouser/);
    expect(systemPrompt(0)).toContain("nouser");
  });

  it("config session.activeSkills loads a skill at start; session.deny hides one from the model and from /skill", async () => {
    await skill("style", "House style.");
    await skill("team-report", "Team reports.");
    await skill("secret-tool", "Internal only.");
    await config({ session: { activeSkills: ["style"], deny: ["secret-*"] } });
    server.script.push({ text: "ok" });
    const { out } = await chat(["/skills", "hello", "/skill secret-tool", "/exit"]);
    expect(out).toMatch(/\[✓\] style/);
    expect(out).toMatch(/\[○\] team-report/);
    expect(out).not.toMatch(/\[.\] secret-tool/);
    expect(out).toMatch(/Skill 'secret-tool' not found/);
    expect(out).not.toContain("+ loaded secret-tool");
    expect(systemPrompt(0)).toContain("team-report");
    expect(systemPrompt(0)).not.toContain("secret-tool");
  });

  it("--allow, --deny and --active replace the config's lists", async () => {
    await skill("style", "House style.");
    await skill("team-report", "Team reports.");
    await skill("secret-tool", "Internal only.");
    await config({ session: { deny: ["secret-*"], allow: ["*"] } });
    const { out } = await chat(
      ["/skills", "/exit"],
      ["--allow", "secret-*", "--allow", "style", "--deny", "none", "--active", "style"],
    );
    expect(out).toMatch(/\[○\] secret-tool/);
    expect(out).toMatch(/\[✓\] style/);
    expect(out).not.toContain("team-report");
  });

  it("rejects an invalid session section naming the file and key", async () => {
    await config({ session: { active: ["style"] } });
    const { code, out } = await chat(["/exit"]);
    // An invalid config file is exit 2 in every command (issue 39), naming the file and the key.
    expect(code).toBe(2);
    expect(out).toContain("skillrt.config.json");
    expect(out).toContain("session");
  });
});

describe("skillrt chat: catalog budget and costs", () => {
  const words = "reads writes converts checks summarises merges splits validates exports imports";
  async function manySkills(n: number): Promise<void> {
    for (let i = 0; i < n; i++)
      await skill(
        `skill-${String(i).padStart(3, "0")}`,
        `Skill number ${i}: ${words} files of kind ${i} for reports.`,
      );
  }
  const catalogFigure = (out: string): number =>
    Number(/^ {2}catalog\s+([\d,]+)/m.exec(out)?.[1]?.replaceAll(",", ""));

  it("an unknown context window gives the 2,000-token default catalog budget, a configured one 1% of it", async () => {
    await manySkills(120);
    const unknown = catalogFigure((await chat(["/context", "/exit"])).out);
    expect(unknown).toBeGreaterThan(1_280); // not 1% of an assumed 128,000
    expect(unknown).toBeLessThanOrEqual(2_000);
    const flag = catalogFigure((await chat(["/context", "/exit"], ["--context-window", "100000"])).out);
    expect(flag).toBeLessThanOrEqual(1_000);
    await config({ model: { contextWindow: 150_000 } });
    const fromConfig = catalogFigure((await chat(["/context", "/exit"])).out);
    expect(fromConfig).toBeLessThanOrEqual(1_500);
    expect(fromConfig).toBeGreaterThan(flag);
  });

  it("/skills shows a skill's body cost (≈ before loading) and its catalog-line cost", async () => {
    await skill("small", "A small skill.");
    await skill(
      "large",
      "A large skill.",
      "",
      `# Large\n\n${"Do this step carefully and check the result. ".repeat(200)}\n`,
    );
    const { out } = await chat(["/skills", "/skill large", "/skills", "/exit"]);
    const [before = "", after = ""] = out.split("+ loaded large");
    const estimate = Number(
      /\[○\] large\s+body ≈([\d,]+) tok\s+catalog \d+/.exec(before)?.[1]?.replaceAll(",", ""),
    );
    const small = Number(/\[○\] small\s+body\s+≈([\d,]+) tok/.exec(before)?.[1]?.replaceAll(",", ""));
    expect(estimate).toBeGreaterThan(1_500);
    expect(small).toBeLessThan(50);
    const loaded = Number(/\[✓\] large\s+body\s+([\d,]+) tok/.exec(after)?.[1]?.replaceAll(",", ""));
    expect(loaded).toBeGreaterThanOrEqual(estimate);
    expect(loaded).toBeLessThan(estimate + 200);
  });
});

describe("skillrt ask: execution settings from the config", () => {
  it("skill_run saves outputs to .skillrt/artifacts, reads them back as artifact://, and refuses denied commands", async () => {
    await skill("notes", "Writes notes.");
    await config({ exec: { denyCommands: ["curl"], executor: "local" } });
    const write = (text: string) => ({
      name: "skill_run",
      input: {
        name: "notes",
        command: `echo ${text} > "$OUTPUT_DIR/n.txt"`,
        outputs: { globs: ["out/n.txt"], save: true },
      },
    });
    server.script.push(
      { toolCalls: [write("one")] },
      { toolCalls: [write("two")] },
      {
        toolCalls: [
          {
            name: "skill_run",
            input: {
              name: "notes",
              command: 'cat "$WORK_DIR/inputs/n.txt"',
              inputs: [{ from: "artifact://out/n.txt@1" }],
            },
          },
        ],
      },
      {
        toolCalls: [{ name: "skill_run", input: { name: "notes", command: ["curl", "http://example.com"] } }],
      },
      { text: "done" },
    );
    const stdin = new PassThrough();
    stdin.end();
    const out = new PassThrough();
    let text = "";
    out.on("data", (d) => (text += String(d)));
    const code = await main(["ask", "--root", root, "take notes"], {
      stdin,
      stdout: out,
      stderr: out,
      cwd,
      env: { OPENAI_BASE_URL: server.baseURL, AGENT_MODEL: "loopback", HOME: cwd },
    });
    expect(code).toBe(0);
    const toolText = (i: number): string =>
      JSON.stringify(
        server.requests[i]!.body.messages.filter((m: { role: string }) => m.role === "tool").at(-1),
      );
    expect(toolText(1)).toContain("saved as artifact://out/n.txt@1");
    expect(toolText(2)).toContain("saved as artifact://out/n.txt@2");
    expect(toolText(3)).toContain("one");
    expect(toolText(4)).toContain("'curl' is on the deny list");
    expect(await readdir(path.join(cwd, ".skillrt", "artifacts", "out%2Fn%2Etxt"))).toEqual(
      expect.arrayContaining(["v1.bin", "v2.bin"]),
    );
  });
});
