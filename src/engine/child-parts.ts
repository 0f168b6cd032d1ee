/**
 * What a child agent sees of its parent's parts: the catalog narrowed by the definition's `skills`, the
 * host tools and tool sources narrowed by its `tools`, approvals labelled with the agent. Never more than
 * the parent has.
 */
import type { ToolSet } from "ai";
import picomatch from "picomatch";
import { filterCatalog } from "../catalog/filter-catalog.js";
import type { Catalog } from "../catalog/types.js";
import type { AgentDefinition } from "../config/agent-definition.js";
import type { ToolSources } from "./open-tool-sources.js";

/** The parent's catalog narrowed by the definition's `skills` allowlist (all of it without one). */
export function narrowCatalog(catalog: Catalog, skills: readonly string[] | undefined): Catalog {
  return skills === undefined ? catalog : filterCatalog(catalog, skills);
}

/** The parent's host tools the definition's `tools` names (all of them when it names none). */
export function narrowTools(
  tools: ToolSet | undefined,
  names: readonly string[] | undefined,
): { tools: ToolSet } | undefined {
  if (tools === undefined) return undefined;
  if (names === undefined) return { tools };
  const matches = names.length === 0 ? () => false : picomatch([...names]);
  return { tools: Object.fromEntries(Object.entries(tools).filter(([name]) => matches(name))) };
}

/**
 * The parent's tool sources as the child sees them: only the registered tools its definition names, the
 * parent's approval settings with `onApproval` labelled with the agent, never started or closed by it.
 */
export function childToolSources(parent: ToolSources, definition: AgentDefinition): ToolSources {
  const names = definition.tools;
  const matches = names === undefined ? () => true : names.length === 0 ? () => false : picomatch([...names]);
  const { onApproval } = parent.approval;
  const registry = parent.registry;
  return {
    registry: {
      ...registry,
      get: (name) => (matches(name) ? registry.get(name) : undefined),
      all: () => registry.all().filter((t) => matches(t.name)),
    },
    gating: parent.gating,
    approval: {
      ...parent.approval,
      ...(onApproval === undefined
        ? {}
        : { onApproval: (request) => onApproval({ ...request, agent: definition.name }) }),
    },
    // The child's catalog is the parent's (MCP-served skills included) filtered by its allowlist: its own
    // skill source lists nothing more, or the allowlist would be bypassed.
    skills: { ...parent.skills, skills: () => [], revision: () => 0 },
    start: async () => undefined,
    servers: () => parent.servers(),
    onError: () => () => undefined,
    // The servers' progress during a child's call reaches the parent's listener, which shows it.
    onProgress: () => () => undefined,
    close: async () => undefined,
  };
}
