import { type Tool, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ActiveToolsSkill, computeActiveTools } from "./compute-active-tools.js";
import { createToolRegistry, type ToolRegistry } from "./tool-registry.js";

const SKILL_TOOLS = ["skill_load", "skill_read", "skill_unload"];

function makeTool(description: string): Tool {
  return tool({ description, inputSchema: z.object({}), execute: async () => description });
}

function registryWith(
  entries: Array<[name: string, options?: { group?: string; server?: string }]>,
): ToolRegistry {
  const registry = createToolRegistry();
  for (const [name, options] of entries) registry.register(name, makeTool(name), options);
  return registry;
}

/** Most cases below test filtering other than the server default, so they run with `open` unless given. */
function activeFor(registry: ToolRegistry, loadedSkills: ActiveToolsSkill[], extra: object = {}) {
  return computeActiveTools({
    registry,
    loadedSkills,
    skillToolNames: SKILL_TOOLS,
    serverTools: "open",
    ...extra,
  });
}

describe("tool groups bound to skills", () => {
  it("offers a bound group only while its skill is loaded, and says why it is hidden", () => {
    const registry = registryWith([["Read"], ["render_pdf", { group: "pdf-tools" }], ["Write"]]);
    registry.registerGroup("pdf-tools", { skill: "pdf", description: "PDF rendering" });

    const before = activeFor(registry, []);
    expect(before.active).toEqual(["Read", "Write", ...SKILL_TOOLS]);
    expect(before.reasons["render_pdf"]).toBe(
      "group 'pdf-tools' is offered only while skill 'pdf' is loaded",
    );

    const during = activeFor(registry, [{ name: "pdf" }]);
    expect(during.active).toEqual(["Read", "render_pdf", "Write", ...SKILL_TOOLS]);
    expect(during.reasons).toEqual({});

    expect(activeFor(registry, [{ name: "xlsx" }]).active).not.toContain("render_pdf");
  });

  it("binds a group named <skill>_skill_tools to that skill (AgentScope convention)", () => {
    const registry = registryWith([
      ["fill_form", { group: "pdf_skill_tools" }],
      ["free", { group: "misc" }],
    ]);
    expect(registry.groups()).toEqual([{ name: "pdf_skill_tools", skill: "pdf" }, { name: "misc" }]);
    expect(activeFor(registry, []).active).toEqual(["free", ...SKILL_TOOLS]);
    expect(activeFor(registry, [{ name: "pdf" }]).active).toEqual(["fill_form", "free", ...SKILL_TOOLS]);
  });

  it("in only mode, hides every other host tool while the skill is loaded", () => {
    const registry = registryWith([["Read"], ["query", { group: "db" }], ["Bash"]]);
    registry.registerGroup("db", { skill: "sql", mode: "only" });
    expect(activeFor(registry, []).active).toEqual(["Read", "Bash", ...SKILL_TOOLS]);
    const result = activeFor(registry, [{ name: "sql" }]);
    expect(result.active).toEqual(["query", ...SKILL_TOOLS]);
    expect(result.reasons["Read"]).toMatch(/only the tools of group\(s\) 'db'/);
  });

  it("keeps a host tool whose name clashes with a skill tool out, once", () => {
    const registry = registryWith([["skill_load"]]);
    const result = activeFor(registry, []);
    expect(result.active).toEqual(SKILL_TOOLS);
    expect(result.reasons["skill_load"]).toMatch(/taken by the skill tool/);
  });
});

describe("tool_list server filtering (AWorld)", () => {
  const registry = registryWith([
    ["Read"],
    ["mcp__github__create_issue", { server: "github" }],
    ["mcp__github__list_prs", { server: "github" }],
    ["search", { server: "web" }],
    ["fetch", { server: "web" }],
    ["query", { server: "db" }],
  ]);

  it("with no skill loaded, offers no server tools (closed, default) or filters nothing (open)", () => {
    expect(activeFor(registry, [], { serverTools: "open" }).active).toHaveLength(6 + SKILL_TOOLS.length);
    const closed = computeActiveTools({ registry, loadedSkills: [], skillToolNames: SKILL_TOOLS });
    expect(closed.active).toEqual(["Read", ...SKILL_TOOLS]);
    expect(closed.reasons["search"]).toMatch(/no skill loaded/);
  });

  it("an empty list means every tool of the server; a list means only those", () => {
    const skill = { name: "triage", toolList: { github: [], web: ["search"] } };
    const result = activeFor(registry, [skill], { serverTools: "open" });
    expect(result.active).toEqual([
      "Read",
      "mcp__github__create_issue",
      "mcp__github__list_prs",
      "search",
      "query", // db is named by no loaded skill: kept (open)
      ...SKILL_TOOLS,
    ]);
    expect(result.reasons["fetch"]).toBe("the loaded skills' tool_list for server 'web' lists only search");
    expect(activeFor(registry, [skill], { serverTools: "closed" }).active).not.toContain("query");
  });

  it("matches listed names against the server's own tool name (prefix stripped)", () => {
    const result = activeFor(registry, [{ name: "s", toolList: { github: ["list_prs"] } }]);
    expect(result.active).toContain("mcp__github__list_prs");
    expect(result.active).not.toContain("mcp__github__create_issue");
  });

  it("merges lists across loaded skills, and 'all' wins over a specific list", () => {
    const a = { name: "a", toolList: { web: ["search"] } };
    const b = { name: "b", toolList: { web: ["fetch"], github: ["create_issue"] } };
    const merged = activeFor(registry, [a, b]).active;
    expect(merged).toEqual(expect.arrayContaining(["search", "fetch", "mcp__github__create_issue"]));
    expect(merged).not.toContain("mcp__github__list_prs");
    const c = { name: "c", toolList: { github: "" } }; // `github:` with no value in YAML
    expect(activeFor(registry, [b, c]).active).toContain("mcp__github__list_prs");
  });

  it("accepts tool_list as a JSON string and ignores a string that is not JSON", () => {
    const json = { name: "j", toolList: '{"web": ["fetch"]}' };
    expect(activeFor(registry, [json]).active).not.toContain("search");
    const junk = { name: "k", toolList: "web" };
    expect(activeFor(registry, [junk]).active).toContain("search");
  });

  it("disables host tools when every forced skill is instruction-only", () => {
    const forced = activeFor(registry, [{ name: "style-guide", forced: true }]);
    expect(forced.active).toEqual(SKILL_TOOLS);
    expect(forced.reasons["Read"]).toMatch(/'style-guide' are instruction-only/);
    const withTools = activeFor(registry, [{ name: "t", forced: true, toolList: { web: [] } }]);
    expect(withTools.active).toContain("search");
    expect(activeFor(registry, [{ name: "sub", forced: true, type: "agent" }]).active).toContain("Read");
  });
});

describe("allowed-tools policies", () => {
  const registry = registryWith([["Read"], ["Bash"], ["Write"], ["mcp__jira__create", { server: "jira" }]]);
  const git = { name: "git-helper", allowedTools: ["Read", "Bash(git:*)", "Bash(gh:*)"] };
  const jira = { name: "jira", allowedTools: ["mcp__jira__create"] };

  it("ignore (default): allowed-tools changes nothing", () => {
    const result = activeFor(registry, [git]);
    expect(result.active).toEqual(["Read", "Bash", "Write", "mcp__jira__create", ...SKILL_TOOLS]);
    expect(result.preapproved).toEqual([]);
    expect(result.patterns).toEqual({});
  });

  it("preapprove: everything offered, named tools preapproved with their patterns", () => {
    const result = activeFor(registry, [git], { policy: "preapprove" });
    expect(result.active).toEqual(["Read", "Bash", "Write", "mcp__jira__create", ...SKILL_TOOLS]);
    expect(result.preapproved).toEqual(["Read", "Bash"]);
    expect(result.patterns).toEqual({ Bash: ["git:*", "gh:*"] });
    // A bare name from another skill allows every call: no patterns left for the host to check.
    const bare = activeFor(registry, [git, { name: "ops", allowedTools: ["Bash"] }], {
      policy: "preapprove",
    });
    expect(bare.patterns).toEqual({});
  });

  it("restrict: only the union of declaring skills' tools plus skill tools", () => {
    const result = activeFor(registry, [git, jira, { name: "plain" }], { policy: "restrict" });
    expect(result.active).toEqual(["Read", "Bash", "mcp__jira__create", ...SKILL_TOOLS]);
    expect(result.reasons["Write"]).toBe(
      "not in the allowed-tools of 'git-helper', 'jira' (policy restrict)",
    );
    expect(result.preapproved).toEqual([]);
    expect(result.patterns).toEqual({ Bash: ["git:*", "gh:*"] });
    // With no declaring skill loaded, nothing is restricted.
    expect(activeFor(registry, [{ name: "plain" }], { policy: "restrict" }).active).toContain("Write");
  });

  it("matches mcp__server (whole server) and wildcards", () => {
    const server = activeFor(registry, [{ name: "s", allowedTools: ["mcp__jira"] }], { policy: "restrict" });
    expect(server.active).toEqual(["mcp__jira__create", ...SKILL_TOOLS]);
    const glob = activeFor(registry, [{ name: "s", allowedTools: ["W*"] }], { policy: "restrict" });
    expect(glob.active).toEqual(["Write", ...SKILL_TOOLS]);
  });
});

describe("determinism", () => {
  it("returns the same output for the same input, in registration order then skill tools", () => {
    const registry = registryWith([["zeta"], ["alpha", { group: "g" }], ["mid", { server: "s" }]]);
    registry.registerGroup("g", { skill: "x" });
    const input = { loadedSkills: [{ name: "x", toolList: { s: [] } }], policy: "preapprove" as const };
    const first = activeFor(registry, input.loadedSkills, { policy: input.policy });
    for (let i = 0; i < 5; i++)
      expect(activeFor(registry, input.loadedSkills, { policy: input.policy })).toEqual(first);
    expect(first.active).toEqual(["zeta", "alpha", "mid", ...SKILL_TOOLS]);
  });
});

describe("tool gating (open | skill)", () => {
  const registry = registryWith([
    ["Read"],
    ["mcp__tracker__create_issue", { server: "tracker" }],
    ["mcp__tracker__delete_repo", { server: "tracker" }],
    ["mcp__web__fetch", { server: "web" }],
    ["render", { group: "pdf_skill_tools" }],
  ]);
  const gated = (loaded: ActiveToolsSkill[], gating: "open" | "skill") =>
    computeActiveTools({ registry, loadedSkills: loaded, skillToolNames: SKILL_TOOLS, gating });

  it("open offers every server tool from the start and says so", () => {
    const result = gated([], "open");
    expect(result.active).toEqual([
      "Read",
      "mcp__tracker__create_issue",
      "mcp__tracker__delete_repo",
      "mcp__web__fetch",
      ...SKILL_TOOLS,
    ]);
    expect(result.granted?.["mcp__web__fetch"]).toBe("tool gating is open");
    expect(result.reasons["render"]).toMatch(/only while skill 'pdf' is loaded/);
  });

  it("skill offers no server tool while no skill is loaded, only non-server tools", () => {
    const result = gated([], "skill");
    expect(result.active).toEqual(["Read", ...SKILL_TOOLS]);
    expect(result.reasons["mcp__tracker__create_issue"]).toMatch(/no skill loaded/);
  });

  it("skill offers exactly what allowed-tools grants (name or wildcard), with the grant as reason", () => {
    const triage = { name: "triage", allowedTools: ["Read", "mcp__tracker__create_issue"] };
    const result = gated([triage], "skill");
    expect(result.active).toEqual(["Read", "mcp__tracker__create_issue", ...SKILL_TOOLS]);
    expect(result.granted?.["mcp__tracker__create_issue"]).toBe(
      "granted by skill 'triage' (allowed-tools mcp__tracker__create_issue)",
    );
    expect(result.reasons["mcp__tracker__delete_repo"]).toMatch(/no loaded skill grants it/);
    const wide = gated([{ name: "w", allowedTools: ["mcp__tracker__*"] }], "skill");
    expect(wide.active).toEqual([
      "Read",
      "mcp__tracker__create_issue",
      "mcp__tracker__delete_repo",
      ...SKILL_TOOLS,
    ]);
  });

  it("an untrusted skill's naming offers the tool but is not called a grant", () => {
    const triage = { name: "triage", allowedTools: ["mcp__tracker__create_issue"], untrusted: true };
    const result = gated([triage], "skill");
    expect(result.active).toContain("mcp__tracker__create_issue");
    expect(result.granted?.["mcp__tracker__create_issue"]).toBe(
      "named by skill 'triage' (allowed-tools mcp__tracker__create_issue), which is not trusted: each call needs approval",
    );
  });

  it("skill offers what tool_list grants, and unloading withdraws what only that skill granted", () => {
    const browse = { name: "browse", toolList: { web: [] } };
    const triage = { name: "triage", toolList: { tracker: ["create_issue"] } };
    const both = gated([browse, triage], "skill");
    expect(both.active).toEqual(["Read", "mcp__tracker__create_issue", "mcp__web__fetch", ...SKILL_TOOLS]);
    expect(both.granted?.["mcp__web__fetch"]).toBe(
      "granted by skill 'browse' (tool_list: every tool of server 'web')",
    );
    expect(both.granted?.["mcp__tracker__create_issue"]).toBe(
      "granted by skill 'triage' (tool_list: tracker: create_issue)",
    );
    expect(gated([triage], "skill").active).toEqual(["Read", "mcp__tracker__create_issue", ...SKILL_TOOLS]);
  });

  it("a group bound to a skill is offered with that skill under either gating", () => {
    for (const mode of ["open", "skill"] as const) {
      const result = gated([{ name: "pdf" }], mode);
      expect(result.active).toContain("render");
      expect(result.granted?.["render"]).toBe("group 'pdf_skill_tools' is bound to loaded skill 'pdf'");
    }
  });
});
