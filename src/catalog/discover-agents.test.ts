import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mergeAgents, toAgentDefinition } from "../config/agent-definition.js";
import { SkillrtConfigFile } from "../config/skillrt-config.js";
import { discoverAgents } from "./discover-agents.js";
import { parseAgentFile } from "./parse-agent-file.js";

const REVIEWER = `---
name: code-reviewer
description: Reviews code for quality and security. Use after writing code.
tools: Read, Grep, Glob
model: inherit
skills: [lint-*, style-guide]
---
You are a senior code reviewer.

Report findings by severity.
`;

describe("parseAgentFile", () => {
  it("reads Claude Code's agent format: frontmatter fields and the body as instructions", () => {
    const { agent, diagnostics } = parseAgentFile(REVIEWER, "/p/.claude/agents/code-reviewer.md");
    expect(diagnostics).toEqual([]);
    expect(agent).toEqual({
      name: "code-reviewer",
      description: "Reviews code for quality and security. Use after writing code.",
      instructions: "You are a senior code reviewer.\n\nReport findings by severity.",
      model: "inherit",
      tools: ["Read", "Grep", "Glob"],
      skills: ["lint-*", "style-guide"],
      // Claude Code preloads the skills the file names; the glob only bounds the catalog.
      preload: ["style-guide"],
      source: "/p/.claude/agents/code-reviewer.md",
    });
  });

  it("a Claude Code agent file: skills preloaded, maxTurns as maxSteps, disallowedTools, other fields named as ignored", () => {
    const text = [
      "---",
      "name: planner",
      "description: Plans work.",
      "skills:",
      "  - style-guide",
      "  - notes",
      "maxTurns: 1",
      "tools: Read, Bash",
      "disallowedTools: Bash",
      "model: small",
      "permissionMode: plan",
      "color: blue",
      "favourite-food: soup",
      "---",
      "Plan it.",
      "",
    ].join("\n");
    const { agent, diagnostics } = parseAgentFile(text, "/p/.claude/agents/planner.md");
    expect(agent).toMatchObject({
      name: "planner",
      skills: ["style-guide", "notes"],
      preload: ["style-guide", "notes"],
      maxSteps: 1,
      tools: ["Read", "Bash"],
      disallowedTools: ["Bash"],
      model: "small",
    });
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["agent-field-ignored", "warning"],
      ["agent-field-ignored", "warning"],
      ["agent-field-ignored", "warning"],
    ]);
    expect(diagnostics[0]?.message).toContain(
      "Agent 'planner': field 'permissionMode' (Claude Code) has no equivalent",
    );
    expect(diagnostics[1]?.message).toContain("field 'color' (Claude Code)");
    expect(diagnostics[2]?.message).toBe(
      "Agent 'planner': field 'favourite-food' is not an agent field skillrt knows; it is ignored.",
    );
  });

  it("takes a model id, max-steps and preload, and the file name when name is missing", () => {
    const text =
      "---\ndescription: Researches.\nmodel: small-model\nmax-steps: 6\npreload: notes\n---\nDig.\n";
    const { agent } = parseAgentFile(text, "/p/agents/researcher.md");
    expect(agent).toMatchObject({
      name: "researcher",
      model: "small-model",
      maxSteps: 6,
      preload: ["notes"],
    });
  });

  it("skips a file whose field has the wrong type, saying which field", () => {
    const text = "---\nname: bad\ndescription: d\nmaxSteps: lots\n---\nx\n";
    const { agent, diagnostics } = parseAgentFile(text, "/p/agents/bad.md");
    expect(agent).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      code: "field-invalid-type",
      severity: "error",
      path: "/p/agents/bad.md",
    });
    expect(diagnostics[0]?.message).toContain("'maxSteps'");
  });

  it("skips a file without frontmatter with the parser's error", () => {
    const { agent, diagnostics } = parseAgentFile("just text", "/p/agents/none.md");
    expect(agent).toBeUndefined();
    expect(diagnostics.some((d) => d.severity === "error")).toBe(true);
  });
});

describe("discoverAgents", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-agents-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads agents/*.md next to each skills root, the first root winning a name", async () => {
    const project = path.join(dir, "proj", ".claude");
    const user = path.join(dir, "home", ".claude");
    await mkdir(path.join(project, "agents"), { recursive: true });
    await mkdir(path.join(user, "agents"), { recursive: true });
    await writeFile(path.join(project, "agents", "code-reviewer.md"), REVIEWER);
    await writeFile(path.join(user, "agents", "reviewer-copy.md"), REVIEWER);
    await writeFile(
      path.join(user, "agents", "helper.md"),
      "---\nname: helper\ndescription: Helps.\n---\nHelp.\n",
    );
    await writeFile(path.join(user, "agents", "notes.txt"), "not an agent");
    const found = await discoverAgents([
      { path: path.join(project, "skills"), scope: "project" },
      path.join(dir, "missing", "skills"),
      { path: path.join(user, "skills"), scope: "user" },
    ]);
    expect(Object.keys(found.agents).sort()).toEqual(["code-reviewer", "helper"]);
    expect(found.agents["code-reviewer"]?.source).toBe(path.join(project, "agents", "code-reviewer.md"));
    expect(found.diagnostics).toHaveLength(1);
    expect(found.diagnostics[0]).toMatchObject({
      code: "name-shadowed",
      path: path.join(user, "agents", "reviewer-copy.md"),
    });
  });
});

describe("agents from config and code", () => {
  it("the config file's agents section is checked, and it overrides files of the same name", () => {
    const config = SkillrtConfigFile.parse({
      agents: { "code-reviewer": { description: "From config.", skills: "a, b", maxSteps: 3 } },
    });
    const file = parseAgentFile(REVIEWER, "/p/agents/code-reviewer.md").agent;
    const merged = mergeAgents(file === undefined ? {} : { "code-reviewer": file }, config.agents, "config");
    expect(merged["code-reviewer"]).toEqual({
      name: "code-reviewer",
      description: "From config.",
      instructions: "",
      model: "inherit",
      skills: ["a", "b"],
      maxSteps: 3,
      source: "config",
    });
    expect(() => SkillrtConfigFile.parse({ agents: { "Bad Name": { description: "x" } } })).toThrow(
      /lowercase letters/,
    );
    expect(() => toAgentDefinition("x", { description: "" }, "code")).toThrow();
  });
});
