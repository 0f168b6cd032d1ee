import { type Tool, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeSkillTree, type SkillTree } from "../context/__fixtures__/skill-tree.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { createSkillTools } from "./create-skill-tools.js";
import type { ToolApprovalOptions, ToolApprovalRequest } from "./tool-approval.js";
import { createToolRegistry } from "./tool-registry.js";

let tree: SkillTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const ran: string[] = [];
function host(name: string): Tool {
  return tool({
    description: name,
    inputSchema: z.object({ x: z.number().optional() }),
    execute: async () => {
      ran.push(name);
      return { done: name };
    },
  });
}

async function setup(approval: ToolApprovalOptions) {
  ran.length = 0;
  tree = await makeSkillTree([
    {
      name: "triage",
      description: "Triage bugs.",
      frontmatter: { "allowed-tools": "mcp__tracker__create_issue deploy" },
    },
  ]);
  const registry = createToolRegistry();
  registry.register("mcp__tracker__create_issue", host("create_issue"), { server: "tracker" });
  registry.register("mcp__tracker__delete_repo", host("delete_repo"), { server: "tracker" });
  registry.register("mcp__tracker__close_issue", host("close_issue"), { server: "tracker" });
  registry.register("deploy", host("deploy"), { group: "ops" });
  const session = createSkillSession({ catalog: tree.catalog });
  const skills = createSkillTools(session, { registry, approval, gating: "open" });
  const run = async (name: string) => {
    const t = skills.allTools()[name] as Tool;
    const output = await t.execute?.({}, {
      toolCallId: `call-${name}`,
      messages: [],
      context: undefined,
    } as never);
    const model = await t.toModelOutput?.({ toolCallId: "c", input: {}, output } as never);
    return { output, model };
  };
  return { session, skills, run };
}

describe("tool approvals", () => {
  it("unlisted: asks for a call no active skill or tools.allow names; a refusal is a result the model reads", async () => {
    const asked: ToolApprovalRequest[] = [];
    const { run } = await setup({
      onApproval: (r) => {
        asked.push(r);
        return "no";
      },
    });
    const { model } = await run("mcp__tracker__delete_repo");
    expect(asked).toEqual([
      {
        toolName: "mcp__tracker__delete_repo",
        toolCallId: "call-mcp__tracker__delete_repo",
        input: {},
        server: "tracker",
      },
    ]);
    expect(ran).toEqual([]);
    expect(model).toEqual({
      type: "error-text",
      value: expect.stringMatching(
        /^The call of mcp__tracker__delete_repo was not approved by the user\. It did not run\./,
      ),
    });
  });

  it("an active skill's allowed-tools pre-approves, and unloading it takes that away", async () => {
    const asked: string[] = [];
    const { session, skills, run } = await setup({
      onApproval: (r) => {
        asked.push(r.toolName);
        return "yes";
      },
    });
    await session.load("triage");
    expect(skills.preapproval("mcp__tracker__create_issue")).toBe(
      "in the allowed-tools of active skill 'triage' (mcp__tracker__create_issue)",
    );
    expect((await run("mcp__tracker__create_issue")).model).toEqual({
      type: "json",
      value: { done: "create_issue" },
    });
    await run("deploy"); // a host tool registered in code, named by the skill too
    expect(asked).toEqual([]);
    session.unload("triage");
    await run("mcp__tracker__create_issue");
    expect(asked).toEqual(["mcp__tracker__create_issue"]);
    expect(ran).toEqual(["create_issue", "deploy", "create_issue"]);
  });

  it("tools.allow pre-approves (wildcards too); 'always' is remembered; a deny reason reaches the model", async () => {
    const answers = ["always", { deny: "not today" }] as const;
    const asked: string[] = [];
    const { run } = await setup({
      allow: ["mcp__tracker__create_*"],
      onApproval: (r) => {
        asked.push(r.toolName);
        return answers[asked.length - 1] ?? "no";
      },
    });
    await run("mcp__tracker__create_issue");
    await run("mcp__tracker__close_issue");
    await run("mcp__tracker__close_issue");
    const denied = await run("mcp__tracker__delete_repo");
    expect(asked).toEqual(["mcp__tracker__close_issue", "mcp__tracker__delete_repo"]);
    expect(ran).toEqual(["create_issue", "close_issue", "close_issue"]);
    expect(denied.model).toMatchObject({ value: expect.stringContaining("was not approved: not today.") });
  });

  it("never runs everything; always asks even for listed tools; no callback refuses", async () => {
    const never = await setup({ mode: "never" });
    await never.run("mcp__tracker__delete_repo");
    expect(ran).toEqual(["delete_repo"]);

    const asked: string[] = [];
    const strict = await setup({
      mode: "always",
      allow: ["deploy"],
      onApproval: (r) => {
        asked.push(r.toolName);
        return "yes";
      },
    });
    await strict.run("deploy");
    expect(asked).toEqual(["deploy"]);

    const none = await setup({});
    expect((await none.run("mcp__tracker__delete_repo")).output).toMatchObject({ refused: true });
    expect(ran).toEqual([]);
    // The default (unlisted) guards MCP server tools; a tool the program registered in code runs.
    expect((await none.run("deploy")).output).toEqual({ done: "deploy" });
    expect(none.skills.preapproval("deploy")).toBe("registered by the program (not from an MCP server)");
  });

  it("puts concurrent calls to the user one at a time", async () => {
    let open = 0;
    let most = 0;
    const { run } = await setup({
      onApproval: async () => {
        open += 1;
        most = Math.max(most, open);
        await new Promise((r) => setTimeout(r, 20));
        open -= 1;
        return "yes" as const;
      },
    });
    await Promise.all([run("deploy"), run("mcp__tracker__delete_repo"), run("mcp__tracker__create_issue")]);
    expect(most).toBe(1);
    expect(ran.sort()).toEqual(["create_issue", "delete_repo", "deploy"]);
  });
});
