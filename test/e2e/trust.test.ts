/**
 * Trust of project-scope skills end to end: the built CLI (`ask`, `trust`) against a loopback provider.
 * A freshly cloned project's `.agents/skills` skill can be loaded but neither its script nor its
 * `` !`cmd` `` runs until `skillrt trust`; editing the skill afterwards needs trust again.
 */
import { existsSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

let base: string;
let project: string;
let home: string;
let server: LoopbackProvider | undefined;

const SKILL = `---
name: greet
description: Greets the user with a marker from the project.
---
Live marker: !\`echo PRE-$((6*7))\`

\`\`\`!
echo BLOCK-$((2+3))
\`\`\`

Run \`sh scripts/hello.sh\` to greet.
`;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-trust-"));
  project = path.join(base, "project");
  home = path.join(base, "home");
  const skill = path.join(project, ".agents", "skills", "greet");
  await mkdir(path.join(skill, "scripts"), { recursive: true });
  await mkdir(home);
  await writeFile(path.join(skill, "SKILL.md"), SKILL);
  await writeFile(path.join(skill, "scripts", "hello.sh"), "echo HELLO-FROM-SCRIPT\n");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(base, { recursive: true, force: true });
});

function toolTexts(body: any): string[] {
  return body.messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content));
}

/** One `ask` that loads greet, runs its script and answers; the tool results the model read. */
async function askGreet(
  flags: string[] = [],
): Promise<{ code: number | null; load: string; run: string; stderr: string }> {
  server = await startLoopbackProvider("openai", [
    { toolCalls: [{ name: "skill_load", input: { name: "greet" } }] },
    { toolCalls: [{ name: "skill_run", input: { name: "greet", command: "sh scripts/hello.sh" } }] },
    { text: "Done." },
  ]);
  const run = await runCli(["ask", "--executor", "local", ...flags, "greet me"], {
    cwd: project,
    env: {
      HOME: home,
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: "sk-loopback",
      AGENT_MODEL: "loopback-model",
    },
    timeoutMs: 60_000,
  });
  const bodies = server.requests.map((r) => r.body);
  await server.close();
  server = undefined;
  const tools = toolTexts(bodies.at(-1));
  return { code: run.code, load: tools[0] ?? "", run: tools[1] ?? "", stderr: run.stderr };
}

const trustCli = (args: string[]) => runCli(["trust", ...args], { cwd: project, env: { HOME: home } });

describe("trust of project-scope skills", () => {
  it("untrusted: loadable, but the script and !`cmd` do not run; after skillrt trust both do; an edit revokes it", async () => {
    const before = await askGreet();
    expect(before.code).toBe(0);
    // The instructions reach the model; the directives are replaced by a note naming the command.
    expect(before.load).toContain("Run `sh scripts/hello.sh` to greet.");
    expect(before.load).not.toContain("PRE-42");
    expect(before.load).not.toContain("BLOCK-5");
    expect(before.load).toContain("not run: this skill is not trusted");
    expect(before.load).toContain(`skillrt trust ${path.join(project, ".agents", "skills")}`);
    // The script is refused with a message naming skillrt trust.
    expect(before.run).not.toContain("HELLO-FROM-SCRIPT");
    expect(before.run).toContain("skillrt trust");

    const trusted = await trustCli([]);
    expect(trusted.stderr).toBe("");
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(`Trusted ${path.join(project, ".agents", "skills")}`);

    const after = await askGreet();
    expect(after.code).toBe(0);
    expect(after.load).toContain("Live marker: PRE-42");
    expect(after.load).toContain("BLOCK-5");
    expect(after.load).not.toContain("not trusted");
    expect(after.run).toContain("HELLO-FROM-SCRIPT");

    // Editing the skill changes the root's digest: trust is needed again.
    await appendFile(path.join(project, ".agents", "skills", "greet", "SKILL.md"), "\nOne more line.\n");
    const listed = await trustCli(["--list"]);
    expect(listed.stdout).toContain("changed since it was trusted");
    const edited = await askGreet();
    expect(edited.load).not.toContain("PRE-42");
    expect(edited.run).not.toContain("HELLO-FROM-SCRIPT");
    expect(edited.run).toContain("skillrt trust");
    // The lapse is said, not silent: the user's own edit needs their trust again.
    expect(edited.stderr).toContain(
      `${path.join(project, ".agents", "skills")} changed since you trusted it: its scripts, allowed-tools and !\`cmd\` stay off`,
    );
  });

  it("ask --trust runs them for one run without recording; --revoke removes a recorded trust", async () => {
    const once = await askGreet(["--trust"]);
    expect(once.load).toContain("Live marker: PRE-42");
    expect(once.run).toContain("HELLO-FROM-SCRIPT");
    expect(JSON.parse((await trustCli(["--list", "--json"])).stdout)).toEqual({ roots: [] });
    expect((await trustCli([])).code).toBe(0);
    const revoked = await trustCli(["--revoke"]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked trust of ${path.join(project, ".agents", "skills")}`);
    const list = await trustCli(["--list", "--json"]);
    expect(JSON.parse(list.stdout)).toEqual({ roots: [] });
  });

  it("the trust file is owner-only, and a project's own config cannot trust itself", async () => {
    await writeFile(path.join(project, "skillrt.config.json"), JSON.stringify({ trust: true }));
    const run = await askGreet();
    expect(run.run).not.toContain("HELLO-FROM-SCRIPT");
    expect(run.stderr).toContain("'trust' is ignored here");
    expect((await trustCli([])).code).toBe(0);
    const { statSync } = await import("node:fs");
    const file = path.join(home, ".local", "state", "skillrt", "trust.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it("skillrt trust of a project records its config file and the folders it names, not the whole project", async () => {
    const vendor = path.join(project, "vendor", "tool");
    await mkdir(vendor, { recursive: true });
    await writeFile(
      path.join(vendor, "SKILL.md"),
      "---\nname: tool\ndescription: A vendored tool.\n---\nUse it.\n",
    );
    // A big project tree (its own node_modules) is not a skill root and is not digested.
    await mkdir(path.join(project, "node_modules", "dep"), { recursive: true });
    await writeFile(path.join(project, "node_modules", "dep", "index.js"), "module.exports = 1;\n");
    await writeFile(path.join(project, "skillrt.config.json"), JSON.stringify({ roots: ["vendor"] }));
    const trusted = await trustCli([]);
    expect(trusted.code).toBe(0);
    const list = await trustCli(["--list", "--json"]);
    const rows = JSON.parse(list.stdout).roots.map((r: any) => [r.origin.kind, r.origin.id, r.state]);
    expect(rows.sort()).toEqual(
      [
        ["config", path.join(project, "skillrt.config.json"), "trusted"],
        ["fs", path.join(project, ".agents", "skills"), "trusted"],
        ["fs", path.join(project, "vendor"), "trusted"],
      ].sort(),
    );
    // Revoking the project removes all three.
    const revoked = await trustCli(["--revoke"]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse((await trustCli(["--list", "--json"])).stdout).roots).toEqual([]);
  });

  it("an edit under node_modules/ of a trusted root shows as changed, and its script is refused", async () => {
    const skill = path.join(project, ".agents", "skills", "greet");
    const pwned = path.join(base, "pwned-by-node-modules");
    await mkdir(path.join(skill, "node_modules", "x"), { recursive: true });
    await writeFile(path.join(skill, "node_modules", "x", "index.js"), 'module.exports = "HELPER-OK";\n');
    await writeFile(
      path.join(skill, "scripts", "hello.sh"),
      'echo "HELLO-FROM-SCRIPT $(node -e \'console.log(require("./node_modules/x"))\')"\n',
    );
    expect((await trustCli([])).code).toBe(0);
    const trusted = await askGreet();
    expect(trusted.run).toContain("HELLO-FROM-SCRIPT HELPER-OK");

    await writeFile(
      path.join(skill, "node_modules", "x", "index.js"),
      `require("fs").writeFileSync(${JSON.stringify(pwned)}, "ran");\nmodule.exports = "HELPER-EDITED";\n`,
    );
    const listed = await trustCli(["--list"]);
    expect(listed.stdout).toContain(
      `${path.join(project, ".agents", "skills")}  changed since it was trusted`,
    );
    const json = JSON.parse((await trustCli(["--list", "--json"])).stdout);
    expect(json.roots.map((r: { state: string }) => r.state)).toEqual(["changed"]);
    const edited = await askGreet();
    expect(edited.run).not.toContain("HELLO-FROM-SCRIPT");
    expect(edited.run).toContain("not trusted");
    expect(edited.run).toContain("skillrt trust");
    expect(existsSync(pwned)).toBe(false);
  });

  it("a script rewritten while a model request is pending does not run as trusted", async () => {
    const script = path.join(project, ".agents", "skills", "greet", "scripts", "hello.sh");
    const pwned = path.join(base, "pwned-by-rewrite");
    expect((await trustCli([])).code).toBe(0);
    server = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "greet" } }] },
      // The model takes its time; meanwhile the script is rewritten. skillrt opened (and checked) trust
      // when it started, before this request.
      {
        toolCalls: [{ name: "skill_run", input: { name: "greet", command: "sh scripts/hello.sh" } }],
        delayMs: 1500,
      },
      { text: "Done." },
    ]);
    const provider = server;
    const running = runCli(["ask", "--executor", "local", "greet me"], {
      cwd: project,
      env: {
        HOME: home,
        OPENAI_BASE_URL: provider.baseURL,
        OPENAI_API_KEY: "sk-loopback",
        AGENT_MODEL: "loopback-model",
      },
      timeoutMs: 60_000,
    });
    const deadline = Date.now() + 30_000;
    while (provider.requests.length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(provider.requests.length).toBe(2);
    // The skill was loaded (its !`cmd` ran, trusted); the model's request for skill_run is pending.
    expect(toolTexts(provider.requests[1]?.body)[0]).toContain("Live marker: PRE-42");
    await writeFile(script, `echo EVIL-REWRITE\necho ran > ${pwned}\n`);
    const run = await running;
    expect(run.code).toBe(0);
    const tools = toolTexts(provider.requests.at(-1)?.body);
    expect(tools[1]).not.toContain("EVIL-REWRITE");
    expect(tools[1]).toContain("not trusted");
    expect(tools[1]).toContain(`skillrt trust ${path.join(project, ".agents", "skills")}`);
    expect(run.stderr).toContain(
      `${path.join(project, ".agents", "skills")} changed since its trust was checked`,
    );
    expect(existsSync(pwned)).toBe(false);
  });

  it("a root past the digest's caps is refused by skillrt trust with what to do, and listed as unchecked", async () => {
    const skills = path.join(project, ".agents", "skills");
    const big = path.join(skills, "greet", "node_modules", "dep", "blob.bin");
    expect((await trustCli([])).code).toBe(0);
    await mkdir(path.dirname(big), { recursive: true });
    // Sparse: 512 MiB + 1 byte on paper, nothing on disk (the cap is checked before reading).
    await writeFile(big, "");
    await truncate(big, 512 * 1024 * 1024 + 1);
    const refused = await trustCli([]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `skillrt trust: ${skills} was not trusted: ${skills} holds more than 512 MiB`,
    );
    expect(refused.stderr).toContain("node_modules/ included");
    const listed = await trustCli(["--list"]);
    expect(listed.stdout).toContain(
      `${skills}  not trusted now, cannot be checked: ${skills} holds more than 512 MiB`,
    );
    const json = JSON.parse((await trustCli(["--list", "--json"])).stdout);
    expect(json.roots[0].state).toBe("unchecked");
    const ask = await askGreet();
    expect(ask.run).not.toContain("HELLO-FROM-SCRIPT");
    expect(ask.stderr).toContain(`${skills} is not trusted: ${skills} holds more than 512 MiB`);
  });
});
