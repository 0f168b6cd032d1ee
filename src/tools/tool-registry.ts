/**
 * The host's own tools (AI SDK `Tool` objects), optionally in groups and per MCP-style server. Which of
 * them the model is offered on a step is decided by {@link computeActiveTools}.
 */
import type { Tool } from "ai";
import { SkillrtError } from "../errors/skillrt-error.js";

/** One host tool and how it is gated. */
export interface RegisteredTool {
  /** The name the model calls it by. Unique in a registry. */
  name: string;
  tool: Tool;
  /** Tool group; a group bound to a skill is offered only while that skill is loaded. */
  group?: string;
  /** MCP-style server the tool belongs to; gated by the loaded skills' `tool_list`. */
  server?: string;
}

/** A tool group. */
export interface ToolGroup {
  name: string;
  /**
   * Skill that activates the group: its tools are offered only while that skill is loaded. A group never
   * declared but named `<skill>_skill_tools` (AgentScope's convention) is bound to `<skill>`.
   */
  skill?: string;
  description?: string;
  /**
   * `include` (default): the group's tools are added while the skill is loaded. `only`: while the skill is
   * loaded, host tools outside active `only` groups are hidden (trpc's `only` activation; fails closed when
   * the group is empty). Skill tools are always offered.
   */
  mode?: "include" | "only";
}

/** Options of {@link ToolRegistry.registerGroup}. */
export type RegisterGroupOptions = Omit<ToolGroup, "name">;

/** The host's tools. Iteration order is registration order, which is also the order tools are offered in. */
export interface ToolRegistry {
  /** Adds a tool. Throws `invalid-argument` when the name is taken (unregister it first). */
  register(name: string, tool: Tool, options?: { group?: string; server?: string }): void;
  /** Declares a group or updates it (binds it to a skill, describes it). Groups may be declared before or after their tools. */
  registerGroup(group: string, options?: RegisterGroupOptions): void;
  /** Removes a tool; true when it was registered. */
  unregister(name: string): boolean;
  get(name: string): RegisteredTool | undefined;
  /** Every tool, in registration order. */
  all(): RegisteredTool[];
  /** Declared groups (in declaration order), then groups only named by tools (in registration order). */
  groups(): ToolGroup[];
}

const IMPLICIT_SUFFIX = "_skill_tools";

/** Creates an empty {@link ToolRegistry}. */
export function createToolRegistry(): ToolRegistry {
  const tools = new Map<string, RegisteredTool>();
  const declared = new Map<string, ToolGroup>();

  const nonEmpty = (kind: string, value: unknown): string => {
    if (typeof value !== "string" || value.trim() === "") {
      throw new SkillrtError({
        code: "invalid-argument",
        message: `Tool ${kind} must be a non-empty string.`,
      });
    }
    return value;
  };

  return {
    register(name, tool, options = {}) {
      nonEmpty("name", name);
      if (tools.has(name)) {
        throw new SkillrtError({
          code: "invalid-argument",
          message: `Tool '${name}' is already registered; unregister it first or choose another name.`,
        });
      }
      const entry: RegisteredTool = { name, tool };
      if (options.group !== undefined) entry.group = nonEmpty("group", options.group);
      if (options.server !== undefined) entry.server = nonEmpty("server", options.server);
      tools.set(name, entry);
    },

    registerGroup(group, options = {}) {
      nonEmpty("group", group);
      const entry: ToolGroup = { ...declared.get(group), name: group };
      if (options.skill !== undefined) entry.skill = nonEmpty("group skill", options.skill);
      if (options.description !== undefined) entry.description = options.description;
      if (options.mode !== undefined) entry.mode = options.mode;
      declared.set(group, entry);
    },

    unregister: (name) => tools.delete(name),
    get: (name) => tools.get(name),
    all: () => [...tools.values()],

    groups() {
      const result = [...declared.values()].map(withImplicitSkill);
      const seen = new Set(declared.keys());
      for (const t of tools.values()) {
        if (t.group === undefined || seen.has(t.group)) continue;
        seen.add(t.group);
        result.push(withImplicitSkill({ name: t.group }));
      }
      return result;
    },
  };
}

function withImplicitSkill(group: ToolGroup): ToolGroup {
  const copy = { ...group };
  if (
    copy.skill === undefined &&
    copy.name.endsWith(IMPLICIT_SUFFIX) &&
    copy.name.length > IMPLICIT_SUFFIX.length
  ) {
    copy.skill = copy.name.slice(0, -IMPLICIT_SUFFIX.length);
  }
  return copy;
}
