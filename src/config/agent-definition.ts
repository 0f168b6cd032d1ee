/**
 * Agent definitions as data: a subagent's name, description, instructions, model and the skills and tools it
 * may use. Read from `agents/*.md` files (Claude Code's format, `parseAgentFile`) or given in config/code
 * (`agents: { name: { … } }`, {@link AgentSpec}).
 */
import { z } from "zod";
import { builtOnce } from "../util/built-once.js";

/** Approval modes an agent may ask for, loosest first. */
export const APPROVAL_MODES = ["never", "unlisted", "always"] as const;

/** Executors an agent may ask for: none at all, or a kind (`auto`: the parent's). */
export const AGENT_EXECUTORS = ["none", "auto", "local", "sandbox", "container"] as const;

/**
 * The schema of {@link AgentSpec}, built on first use: a zod object whose set-up would otherwise fall on
 * every start of the CLI, which reads agent definitions only when there are some.
 */
function agentSpecSchema() {
  /** A list of names written as a YAML list or as one comma/space-separated string (`Read, Grep`). */
  const NameList = z
    .union([z.array(z.string()), z.string()])
    .transform((value) =>
      (Array.isArray(value) ? value : value.split(/[,\s]+/)).map((n) => n.trim()).filter((n) => n !== ""),
    );

  return z
    .object({
      /** When to use this agent: shown to the parent model in the delegation tool. */
      description: z.string().min(1),
      /** The agent's own instructions (its system prompt before the skill context). */
      instructions: z.string().optional(),
      /** `inherit` (default: the parent's model) or a model id, resolved like the main one. */
      model: z.string().min(1).optional(),
      /**
       * Allowlist of skill names or globs: the agent's catalog holds only these. Unset: every skill its parent
       * may use. Empty: none.
       */
      skills: NameList.optional(),
      /** Skills loaded when the agent starts (each must be allowed by {@link skills}). */
      preload: NameList.optional(),
      /** Host/MCP tool names (or globs) the agent may be offered, within its parent's. Unset: the parent's. */
      tools: NameList.optional(),
      /** Host/MCP tool names (or globs) the agent is never offered, even when `tools` names them (Claude Code's `disallowedTools`). */
      disallowedTools: NameList.optional(),
      /** Most model calls per delegated task. Default: the parent's step limit. */
      maxSteps: z.number().int().positive().optional(),
      /**
       * Approval mode of the agent's tool calls (`never`, `unlisted`, `always`): only a stricter one than its
       * parent's is taken (a looser one is narrowed to the parent's, and `agent-start` says so).
       */
      approval: z.enum(APPROVAL_MODES).optional(),
      /**
       * Where the agent's commands run: `none` (no execution tools), or an executor kind, taken only when it
       * is no weaker than its parent's (a `sandbox` child of a `local` parent; never a `local` child of a
       * sandboxed parent). Default: the parent's executor.
       */
      executor: z.enum(AGENT_EXECUTORS).optional(),
      /** `false` leaves skills' `` !`cmd` `` as written; `true` cannot switch it on under a parent that has it off. */
      shellPreRender: z.boolean().optional(),
    })
    .strict();
}

/** {@link AgentSpec}'s object schema (its `shape` lists the fields an agent file may set). */
export const agentSpecObject = builtOnce(agentSpecSchema);

/**
 * One agent as config or code gives it (`agents: { reviewer: { description, … } }`); the name is the key.
 * Every field but `description` is optional.
 */
export const AgentSpec = z.lazy(agentSpecObject);
/** One agent as config or code gives it; the name is the key. */
export type AgentSpec = z.input<typeof AgentSpec>;

/** A resolved agent definition: an {@link AgentSpec} with its name and where it came from. */
export interface AgentDefinition {
  name: string;
  description: string;
  /** The agent's instructions (the Markdown body of an agent file). Empty: the default instructions. */
  instructions: string;
  /** `inherit` or a model id. */
  model: string;
  skills?: string[];
  preload?: string[];
  tools?: string[];
  disallowedTools?: string[];
  maxSteps?: number;
  /** The approval mode it asks for (narrowed to no looser than its parent's). */
  approval?: (typeof APPROVAL_MODES)[number];
  /** The executor it asks for (narrowed to no weaker than its parent's). */
  executor?: (typeof AGENT_EXECUTORS)[number];
  /** Whether it asks for `` !`cmd` `` pre-rendering (never on under a parent that has it off). */
  shellPreRender?: boolean;
  /** The file it was read from, or `config` / `code`. */
  source: string;
}

/** Agent names: lowercase letters, digits and hyphens (Claude Code's rule), at most 64 characters. */
export const AGENT_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The definition of `name` from `spec`; throws a `ZodError` naming the bad field. */
export function toAgentDefinition(name: string, spec: AgentSpec, source: string): AgentDefinition {
  const parsed = AgentSpec.parse(spec);
  return {
    name,
    description: parsed.description,
    instructions: parsed.instructions?.trim() ?? "",
    model: parsed.model ?? "inherit",
    ...(parsed.skills === undefined ? {} : { skills: parsed.skills }),
    ...(parsed.preload === undefined ? {} : { preload: parsed.preload }),
    ...(parsed.tools === undefined ? {} : { tools: parsed.tools }),
    ...(parsed.disallowedTools === undefined ? {} : { disallowedTools: parsed.disallowedTools }),
    ...(parsed.maxSteps === undefined ? {} : { maxSteps: parsed.maxSteps }),
    ...(parsed.approval === undefined ? {} : { approval: parsed.approval }),
    ...(parsed.executor === undefined ? {} : { executor: parsed.executor }),
    ...(parsed.shellPreRender === undefined ? {} : { shellPreRender: parsed.shellPreRender }),
    source,
  };
}

/**
 * `files` (discovered definitions) with `given` (config or code, by name) on top: a given name replaces the
 * file of that name. Values of `given` may be specs or definitions.
 */
export function mergeAgents(
  files: Readonly<Record<string, AgentDefinition>>,
  given: Readonly<Record<string, AgentSpec | AgentDefinition>> = {},
  source = "code",
): Record<string, AgentDefinition> {
  const merged: Record<string, AgentDefinition> = { ...files };
  for (const [name, value] of Object.entries(given)) {
    merged[name] =
      "source" in value && typeof value.source === "string"
        ? { ...(value as AgentDefinition), name }
        : toAgentDefinition(name, value as AgentSpec, source);
  }
  return merged;
}
