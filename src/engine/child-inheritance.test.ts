import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog } from "../catalog/create-catalog.js";
import { openRecordedTrust, untrustedRootsOf } from "../catalog/recorded-trust.js";
import { digestRoot } from "../catalog/root-digest.js";
import type { TrustOption } from "../catalog/skill-trust.js";
import { recordTrust } from "../catalog/trust-file.js";
import type { Catalog, SkillRoot } from "../catalog/types.js";
import { toAgentDefinition } from "../config/agent-definition.js";
import { createExecutor } from "../exec/create-executor.js";
import type { Executor } from "../exec/executor.js";
import { scriptedModel, toolNamesOf } from "../testing/scripted-model.js";
import type { ToolApprovalRequest } from "../tools/tool-approval.js";
import { createToolRegistry } from "../tools/tool-registry.js";
import { narrowSettings } from "./child-parts.js";
import { createSkillAgent } from "./create-skill-agent.js";
import type { EngineEvent } from "./engine-event.js";

let dir: string;
let projectRoot: SkillRoot;
let userRoot: SkillRoot;
let marker: string;
let catalog: Catalog;

/**
 * A project-scope root (untrusted by default) with `greet`, whose script prints a word, and a user-scope
 * root (trusted) with `status`, whose `` !`cmd` `` writes a marker file when it runs.
 */
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-child-inherit-"));
  projectRoot = { path: path.join(dir, "project", ".agents", "skills"), scope: "project" };
  userRoot = { path: path.join(dir, "home", ".agents", "skills"), scope: "user" };
  marker = path.join(dir, "pre-rendered");
  await mkdir(path.join(projectRoot.path, "greet", "scripts"), { recursive: true });
  await writeFile(
    path.join(projectRoot.path, "greet", "SKILL.md"),
    "---\nname: greet\ndescription: Greets by running its script.\n---\nRun `sh scripts/greet.sh`.\n",
  );
  await writeFile(path.join(projectRoot.path, "greet", "scripts", "greet.sh"), "echo GREETING-FROM-SCRIPT\n");
  await mkdir(path.join(userRoot.path, "status"), { recursive: true });
  await writeFile(
    path.join(userRoot.path, "status", "SKILL.md"),
    `---\nname: status\ndescription: Shows the status.\n---\nStatus: !\`touch ${marker} && echo touched\`\n`,
  );
  catalog = await createCatalog({ roots: [projectRoot, userRoot] });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const delegate = (id = "p1") => ({
  toolCalls: [{ id, name: "agent_run", input: JSON.stringify({ agent: "worker", task: "do it" }) }],
});
const runGreet = {
  toolCalls: [
    { name: "skill_run", input: JSON.stringify({ name: "greet", command: "sh scripts/greet.sh" }) },
  ],
};

/** Runs one parent turn that delegates once to `worker`; returns the child's model and the events. */
async function delegateOnce(options: {
  trust?: TrustOption;
  shellPreRender?: boolean;
  childSteps: Parameters<typeof scriptedModel>[0];
  worker?: Record<string, unknown>;
  parentSteps?: Parameters<typeof scriptedModel>[0];
}) {
  const child = scriptedModel(options.childSteps);
  const events: EngineEvent[] = [];
  const agent = await createSkillAgent({
    model: scriptedModel(options.parentSteps ?? [delegate(), { text: "parent done" }]),
    catalog,
    executor: createExecutor({ kind: "local" }).executor,
    ...(options.trust === undefined ? {} : { trust: options.trust }),
    ...(options.shellPreRender === undefined ? {} : { shellPreRender: options.shellPreRender }),
    agents: { worker: { description: "Works.", model: "child", ...options.worker } },
    delegation: { models: { child } },
  });
  try {
    await agent.send("go", { onEvent: (e) => events.push(e) });
  } finally {
    await agent.close();
  }
  return { child, events };
}

/** The child's tool results, in order. */
const childResults = (events: EngineEvent[]) =>
  events.flatMap((e) => (e.type === "agent-event" && e.event.type === "tool-result" ? [e.event] : []));

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("a child inherits its parent's trust", () => {
  it("without trust the child refuses the project skill's script (the case the parent's trust must change)", async () => {
    const { events } = await delegateOnce({ childSteps: [runGreet, { text: "refused" }] });
    const [result] = childResults(events);
    expect(result).toMatchObject({ toolName: "skill_run", isError: true });
    expect(JSON.stringify(result?.output)).toContain("of skill 'greet' not run: the skill comes from");
  });

  it("trust: true (ask --trust) reaches the child: it runs the project skill's script", async () => {
    const { child, events } = await delegateOnce({ trust: true, childSteps: [runGreet, { text: "ran" }] });
    const [result] = childResults(events);
    expect(result).toMatchObject({ toolName: "skill_run", isError: false });
    expect(JSON.stringify(child.calls[1]!.prompt)).toContain("GREETING-FROM-SCRIPT");
  });

  it("a trust recorded for the project root (skillrt trust) reaches the child", async () => {
    const stateDir = path.join(dir, "state");
    recordTrust(
      stateDir,
      { kind: "fs", id: path.resolve(projectRoot.path) },
      await digestRoot(projectRoot.path),
    );
    const trust = await openRecordedTrust({ roots: untrustedRootsOf([projectRoot, userRoot]), stateDir });
    expect(trust.untrusted()).toEqual([]);
    const { child, events } = await delegateOnce({ trust, childSteps: [runGreet, { text: "ran" }] });
    expect(childResults(events)[0]).toMatchObject({ toolName: "skill_run", isError: false });
    expect(JSON.stringify(child.calls[1]!.prompt)).toContain("GREETING-FROM-SCRIPT");
  });

  it("a root the user trusted when the parent asked is trusted in the child, which does not ask again", async () => {
    const asked: string[] = [];
    const trust = await openRecordedTrust({
      roots: untrustedRootsOf([projectRoot, userRoot]),
      stateDir: undefined,
      ask: async (root) => {
        asked.push(root.display);
        return true;
      },
    });
    // The parent runs the script first (asking once), then delegates; the child runs it too.
    const { child, events } = await delegateOnce({
      trust,
      parentSteps: [runGreet, delegate(), { text: "parent done" }],
      childSteps: [runGreet, { text: "ran" }],
    });
    expect(asked).toEqual([projectRoot.path]);
    expect(childResults(events)[0]).toMatchObject({ toolName: "skill_run", isError: false });
    expect(JSON.stringify(child.calls[1]!.prompt)).toContain("GREETING-FROM-SCRIPT");
  });
});

describe("a child inherits its parent's pre-render setting", () => {
  const loadStatus = { toolCalls: [{ name: "skill_load", input: '{"name":"status"}' }] };

  it("with pre-rendering on (the default) the child's load runs the !`cmd` (the side effect the test watches)", async () => {
    const { child } = await delegateOnce({ childSteps: [loadStatus, { text: "loaded" }] });
    expect(await exists(marker)).toBe(true);
    expect(JSON.stringify(child.calls[1]!.prompt)).toContain("Status: touched");
  });

  it("shellPreRender: false reaches the child: the !`cmd` is shown as written and did not run", async () => {
    const { child } = await delegateOnce({
      shellPreRender: false,
      childSteps: [loadStatus, { text: "loaded" }],
    });
    expect(JSON.stringify(child.calls[1]!.prompt)).toContain(`Status: !\`touch ${marker} && echo touched\``);
    expect(await exists(marker)).toBe(false);
  });

  it("a definition asking for pre-rendering under a parent without it is narrowed, and agent-start says so", async () => {
    const { child, events } = await delegateOnce({
      shellPreRender: false,
      worker: { shellPreRender: true },
      childSteps: [loadStatus, { text: "loaded" }],
    });
    expect(await exists(marker)).toBe(false);
    expect(JSON.stringify(child.calls[1]!.prompt)).toContain("Status: !`touch");
    const start = events.find((e) => e.type === "agent-start");
    expect(start?.type === "agent-start" ? start.narrowed : undefined).toEqual([
      "agent 'worker' (code) asked for shellPreRender; it stays off as its parent has it (skills' !`cmd` stay as written).",
    ]);
  });

  it("a definition may switch pre-rendering off under a parent that has it on", async () => {
    const { events } = await delegateOnce({
      worker: { shellPreRender: false },
      childSteps: [loadStatus, { text: "loaded" }],
    });
    expect(await exists(marker)).toBe(false);
    const start = events.find((e) => e.type === "agent-start");
    expect(start?.type === "agent-start" ? start.narrowed : "unset").toBeUndefined();
  });
});

describe("a child's approvals and executor", () => {
  it("a definition asking for approval 'never' keeps the parent's mode: the child's call still asks the parent's approver", async () => {
    const registry = createToolRegistry();
    const deployed: string[] = [];
    registry.register(
      "deploy",
      tool({
        description: "Deploy.",
        inputSchema: z.object({ env: z.string() }),
        execute: async ({ env }) => {
          deployed.push(env);
          return `deployed ${env}`;
        },
      }),
    );
    const asked: ToolApprovalRequest[] = [];
    const child = scriptedModel([
      { toolCalls: [{ name: "deploy", input: '{"env":"prod"}' }] },
      { text: "tried" },
    ]);
    const events: EngineEvent[] = [];
    const agent = await createSkillAgent({
      model: scriptedModel([delegate(), { text: "ok" }]),
      catalog,
      executor: false,
      toolRegistry: registry,
      toolGating: "open",
      approval: {
        mode: "unlisted",
        onApproval: (request) => {
          asked.push(request);
          return "no";
        },
      },
      agents: { worker: { description: "Works.", model: "child", approval: "never" } },
      delegation: { models: { child } },
    });
    try {
      await agent.send("deploy", { onEvent: (e) => events.push(e) });
    } finally {
      await agent.close();
    }
    expect(asked).toEqual([expect.objectContaining({ toolName: "deploy", agent: "worker" })]);
    expect(deployed).toEqual([]);
    const start = events.find((e) => e.type === "agent-start");
    expect(start?.type === "agent-start" ? start.narrowed : undefined).toEqual([
      "agent 'worker' (code) asked for approval 'never'; it keeps its parent's stricter 'unlisted'.",
    ]);
  });

  it("a definition may make approval stricter: 'always' asks even for a tool the config pre-approves", async () => {
    const registry = createToolRegistry();
    registry.register(
      "lookup",
      tool({ description: "Look up.", inputSchema: z.object({}), execute: async () => "found" }),
    );
    const asked: ToolApprovalRequest[] = [];
    const child = scriptedModel([{ toolCalls: [{ name: "lookup", input: "{}" }] }, { text: "done" }]);
    const agent = await createSkillAgent({
      model: scriptedModel([
        { toolCalls: [{ id: "own", name: "lookup", input: "{}" }] },
        delegate(),
        { text: "ok" },
      ]),
      catalog,
      executor: false,
      toolRegistry: registry,
      toolGating: "open",
      approval: {
        allow: ["lookup"],
        onApproval: (request) => {
          asked.push(request);
          return "yes";
        },
      },
      agents: { worker: { description: "Works.", model: "child", approval: "always" } },
      delegation: { models: { child } },
    });
    try {
      await agent.send("look");
    } finally {
      await agent.close();
    }
    // The parent's own call is pre-approved by tools.allow; the child's is asked about.
    expect(asked).toEqual([expect.objectContaining({ toolName: "lookup", agent: "worker" })]);
  });

  it("executor 'none' in a definition takes the execution tools away from the child", async () => {
    const { child } = await delegateOnce({
      trust: true,
      worker: { executor: "none" },
      childSteps: [{ text: "ok" }],
    });
    expect(toolNamesOf(child.calls[0]!)).not.toContain("skill_run");
    const full = await delegateOnce({ trust: true, childSteps: [{ text: "ok" }] });
    expect(toolNamesOf(full.child.calls[0]!)).toContain("skill_run");
  });

  it("an executor looser than the parent's is never taken; a more confined one is", () => {
    const fake = (kind: Executor["kind"]): Executor => ({
      kind,
      run: async () => Promise.reject(new Error("unused")),
    });
    const worker = (spec: Record<string, unknown>) =>
      toAgentDefinition("worker", { description: "Works.", ...spec }, "agents/worker.md");
    const sandboxed = { approval: "unlisted" as const, executor: fake("sandbox"), shellPreRender: true };

    const local = narrowSettings(sandboxed, worker({ executor: "local" }));
    expect(local.executor).toBe(sandboxed.executor);
    expect(local.narrowed).toEqual([
      "agent 'worker' (agents/worker.md) asked for executor 'local'; it runs on its parent's 'sandbox' " +
        "(a subagent may only run commands more confined than its parent).",
    ]);

    const none = narrowSettings({ ...sandboxed, executor: undefined }, worker({ executor: "sandbox" }));
    expect(none.executor).toBeUndefined();
    expect(none.narrowed[0]).toContain("it runs no commands, as its parent");

    const stricter = narrowSettings(
      { ...sandboxed, executor: fake("local") },
      worker({ executor: "sandbox" }),
    );
    expect(stricter.executor?.kind).toBe("sandbox");
    expect(stricter.narrowed).toEqual([]);

    expect(narrowSettings(sandboxed, worker({ executor: "auto" })).executor).toBe(sandboxed.executor);
    expect(narrowSettings(sandboxed, worker({ executor: "none" })).executor).toBeUndefined();
  });
});
