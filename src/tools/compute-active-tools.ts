/**
 * Which tools the model is offered on a step, given what is loaded: skill-bound tool groups (AgentScope),
 * server-tool gating (`open`, or `skill`: granted by a loaded skill's `tool_list` or `allowed-tools`), and
 * the `allowed-tools` policy. Pure: same input, same output.
 */
import {
  type AllowedToolEntry,
  matchesAllowedTool,
  parseAllowedTool,
  serverToolName,
} from "./match-allowed-tool.js";
import { mergeToolLists, parseToolList, type ToolListFilter } from "./parse-tool-list.js";
import type { RegisteredTool, ToolRegistry } from "./tool-registry.js";

/**
 * What `allowed-tools` means. `ignore` (default): nothing. `preapprove` (Claude Code's meaning): every tool
 * stays offered; the ones a loaded skill names are listed in `preapproved` so the host can skip its
 * permission prompt. `restrict`: while any loaded skill declares `allowed-tools`, only the union of those
 * skills' tools (plus the skill tools) is offered.
 */
export type AllowedToolsPolicy = "ignore" | "preapprove" | "restrict";

/** A loaded skill as tool gating sees it. */
export interface ActiveToolsSkill {
  name: string;
  /** `allowed-tools` entries. An empty list declares nothing. */
  allowedTools?: string[] | undefined;
  /** The raw `tool_list` extra (string-valued YAML or a JSON string). */
  toolList?: unknown;
  /** A skill the user or host forced for this task (AWorld's requested skills). */
  forced?: boolean | undefined;
  /** The `type` extra; `agent` skills are never instruction-only. */
  type?: string | undefined;
  /**
   * Its origin is not trusted: what it names is still offered, but the reason says it is only named (each
   * call is asked, never pre-approved), not granted.
   */
  untrusted?: boolean | undefined;
}

/** Input of {@link computeActiveTools}. */
export interface ActiveToolsInput {
  registry: ToolRegistry;
  /** Loaded skills in load order, with their parsed frontmatter bits. */
  loadedSkills: ActiveToolsSkill[];
  /** Names of the skill tools (skill_load, …, script tools): always offered, after the host tools. */
  skillToolNames: string[];
  /** Default `ignore`. */
  policy?: AllowedToolsPolicy;
  /**
   * Tools of servers that no loaded skill's `tool_list` names. `closed` (default): hidden, so server tools
   * appear only when a loaded skill asks for them, and with no skill loaded no server tools are offered.
   * `open` (AWorld's code): offered, and with no skill loaded nothing is filtered.
   */
  serverTools?: "open" | "closed";
  /**
   * How tools of MCP servers (registered with a `server`) are offered; when set, it replaces
   * `serverTools`. `open` (Claude Code): every server tool, always. `skill` (AWorld, AgentScope): a server
   * tool only while a loaded skill grants it, through its `tool_list` (`{ tracker: [create_issue] }`) or its
   * `allowed-tools` (`mcp__tracker__create_issue`, `mcp__tracker__*`, `mcp__tracker`); with no skill loaded,
   * no server tool is offered, and unloading a skill withdraws what only it granted. `tool-list` (AWorld's
   * `_filter_tools`): with no skill loaded every tool is offered; a server no loaded skill's `tool_list`
   * names keeps all its tools; a named server keeps only the listed tools (an empty list: all of them).
   */
  gating?: ToolGating;
}

/** How server tools are offered: see {@link ActiveToolsInput.gating}. */
export type ToolGating = "open" | "skill" | "tool-list";

/** The result of {@link computeActiveTools}. */
export interface ActiveTools {
  /** Tool names to offer (the AI SDK's `activeTools`): host tools in registration order, then skill tools. */
  active: string[];
  /** Offered tools a loaded skill's `allowed-tools` names (policy `preapprove` only), in `active` order. */
  preapproved: string[];
  /** Why each hidden host tool is hidden, for `/context` and debugging. */
  reasons: Record<string, string>;
  /**
   * Why each offered gated tool (a server tool, or a tool of a group bound to a skill) is offered, e.g.
   * `granted by skill 'triage' (allowed-tools mcp__tracker__create_issue)`. Absent on values built by hand.
   */
  granted?: Record<string, string>;
  /**
   * Argument patterns from entries such as `Bash(git:*)`, per offered tool, for the host's permission check
   * (policies `preapprove` and `restrict`). Absent for a tool also named bare, which allows every call.
   * Always set by {@link computeActiveTools}; optional only so values built by hand stay valid.
   */
  patterns?: Record<string, string[]>;
}

/** Computes the tools to offer now. Call it every step (it is cheap: linear in tools × entries). */
export function computeActiveTools(input: ActiveToolsInput): ActiveTools {
  const policy = input.policy ?? "ignore";
  const loaded = input.loadedSkills;
  const loadedNames = new Set(loaded.map((s) => s.name));
  const skillTools = [...new Set(input.skillToolNames)];
  const skillToolSet = new Set(skillTools);
  const groups = new Map(input.registry.groups().map((g) => [g.name, g]));
  const onlyGroups = [...groups.values()].filter(
    (g) => g.mode === "only" && g.skill !== undefined && loadedNames.has(g.skill),
  );

  const serverFilter = mergeToolLists(loaded.map((s) => parseToolList(s.toolList)));
  const forced = loaded.filter((s) => s.forced === true);
  const instructionOnly =
    forced.length > 0 && forced.every((s) => parseToolList(s.toolList).size === 0 && s.type !== "agent");

  const declaring = loaded
    .map((s) => ({ skill: s.name, entries: parseEntries(s.allowedTools) }))
    .filter((d) => d.entries.length > 0);
  const entries = declaring.flatMap((d) => d.entries);

  const active: string[] = [];
  const reasons: Record<string, string> = {};
  const patterns: Record<string, string[]> = {};
  const preapproved: string[] = [];
  const granted: Record<string, string> = {};
  const perSkillLists = loaded.map((s) => ({ skill: s.name, filter: parseToolList(s.toolList) }));
  const untrusted = new Set(loaded.filter((s) => s.untrusted === true).map((s) => s.name));

  for (const tool of input.registry.all()) {
    const hidden =
      (skillToolSet.has(tool.name) ? `its name is taken by the skill tool '${tool.name}'` : undefined) ??
      groupGate(tool, groups, loadedNames) ??
      onlyGate(tool, onlyGroups) ??
      (input.gating === undefined || input.gating === "tool-list"
        ? serverGate(
            tool,
            serverFilter,
            loaded.length,
            input.gating ?? input.serverTools ?? "closed",
            granted,
          )
        : skillGate(tool, input.gating, perSkillLists, declaring, loaded.length, granted, untrusted)) ??
      (instructionOnly
        ? `forced skill(s) ${forced.map((s) => `'${s.name}'`).join(", ")} are instruction-only (no tool_list), so host tools are disabled`
        : undefined) ??
      (policy === "restrict" && declaring.length > 0 && !entries.some((e) => matchesAllowedTool(e, tool))
        ? `not in the allowed-tools of ${declaring.map((d) => `'${d.skill}'`).join(", ")} (policy restrict)`
        : undefined);
    if (hidden !== undefined) {
      reasons[tool.name] = hidden;
      continue;
    }
    active.push(tool.name);
    if (tool.group !== undefined && granted[tool.name] === undefined) {
      const skill = groups.get(tool.group)?.skill;
      if (skill !== undefined)
        granted[tool.name] = `group '${tool.group}' is bound to loaded skill '${skill}'`;
    }
    if (policy === "ignore") continue;
    const matching = entries.filter((e) => matchesAllowedTool(e, tool));
    if (matching.length === 0) continue;
    if (policy === "preapprove") preapproved.push(tool.name);
    if (matching.every((e) => e.pattern !== undefined)) {
      patterns[tool.name] = [...new Set(matching.map((e) => e.pattern ?? ""))];
    }
  }

  for (const name of skillTools) {
    if (active.includes(name)) continue;
    active.push(name);
    if (policy === "preapprove" && entries.some((e) => e.tool === name)) preapproved.push(name);
  }
  return { active, preapproved, reasons, patterns, granted };
}

/**
 * The `gating` gate of a server tool: undefined when it is offered (the grant is written to `granted`),
 * else why it is hidden.
 */
function skillGate(
  tool: RegisteredTool,
  gating: ToolGating,
  lists: Array<{ skill: string; filter: ToolListFilter }>,
  declaring: Array<{ skill: string; entries: AllowedToolEntry[] }>,
  loadedCount: number,
  granted: Record<string, string>,
  untrusted: ReadonlySet<string>,
): string | undefined {
  if (tool.server === undefined) return undefined;
  // An untrusted skill's naming offers the tool but grants nothing: said so, not "granted" (its calls are
  // asked, and the question or refusal names the command that trusts it).
  const by = (skill: string, what: string): string =>
    untrusted.has(skill)
      ? `named by skill '${skill}' (${what}), which is not trusted: each call needs approval`
      : `granted by skill '${skill}' (${what})`;
  if (gating === "open") {
    granted[tool.name] = "tool gating is open";
    return undefined;
  }
  const own = serverToolName(tool);
  for (const { skill, filter } of lists) {
    const wanted = filter.get(tool.server);
    if (wanted === undefined) continue;
    if (wanted === "all" || wanted.has(own) || wanted.has(tool.name)) {
      granted[tool.name] =
        wanted === "all"
          ? by(skill, `tool_list: every tool of server '${tool.server}'`)
          : by(skill, `tool_list: ${tool.server}: ${own}`);
      return undefined;
    }
  }
  for (const { skill, entries } of declaring) {
    const entry = entries.find((e) => matchesAllowedTool(e, tool));
    if (entry !== undefined) {
      granted[tool.name] = by(skill, `allowed-tools ${entry.raw}`);
      return undefined;
    }
  }
  return loadedCount === 0
    ? `server tools are offered only while a loaded skill grants them (tool gating skill; no skill loaded)`
    : `no loaded skill grants it in its allowed-tools or tool_list (tool gating skill)`;
}

function parseEntries(allowed: string[] | undefined): AllowedToolEntry[] {
  return (allowed ?? []).map(parseAllowedTool).filter((e): e is AllowedToolEntry => e !== undefined);
}

function groupGate(
  tool: RegisteredTool,
  groups: Map<string, { skill?: string }>,
  loaded: Set<string>,
): string | undefined {
  if (tool.group === undefined) return undefined;
  const skill = groups.get(tool.group)?.skill;
  if (skill === undefined || loaded.has(skill)) return undefined;
  return `group '${tool.group}' is offered only while skill '${skill}' is loaded`;
}

function onlyGate(
  tool: RegisteredTool,
  onlyGroups: Array<{ name: string; skill?: string }>,
): string | undefined {
  if (onlyGroups.length === 0) return undefined;
  if (tool.group !== undefined && onlyGroups.some((g) => g.name === tool.group)) return undefined;
  const by = onlyGroups.map((g) => `'${g.name}' (skill '${g.skill}')`).join(", ");
  return `only the tools of group(s) ${by} are offered while their skill is loaded`;
}

function serverGate(
  tool: RegisteredTool,
  filter: ToolListFilter,
  loadedCount: number,
  mode: "open" | "closed" | "tool-list",
  granted: Record<string, string>,
): string | undefined {
  if (tool.server === undefined) return undefined;
  const wanted = filter.get(tool.server);
  if (wanted === undefined) {
    if (mode === "tool-list")
      granted[tool.name] =
        loadedCount === 0
          ? "no skill is active, so every tool is offered (tool gating tool-list)"
          : `no active skill's tool_list names server '${tool.server}' (tool gating tool-list)`;
    if (mode !== "closed") return undefined;
    return loadedCount === 0
      ? `server '${tool.server}' tools are offered only when a loaded skill's tool_list names the server (no skill loaded)`
      : `no loaded skill's tool_list names server '${tool.server}'`;
  }
  if (wanted === "all" || wanted.has(serverToolName(tool)) || wanted.has(tool.name)) {
    if (mode === "tool-list")
      granted[tool.name] = `listed in an active skill's tool_list for server '${tool.server}'`;
    return undefined;
  }
  return `the loaded skills' tool_list for server '${tool.server}' lists only ${[...wanted].join(", ")}`;
}
