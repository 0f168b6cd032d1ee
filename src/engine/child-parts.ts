/**
 * What a child agent sees of its parent's parts: the catalog narrowed by the definition's `skills`, the
 * host tools and tool sources narrowed by its `tools`, approvals labelled with the agent, and the
 * approval mode, executor and pre-render setting its definition may only make stricter. Never more than
 * the parent has.
 */
import type { ToolSet } from "ai";
import picomatch from "picomatch";
import { filterCatalog } from "../catalog/filter-catalog.js";
import type { Catalog } from "../catalog/types.js";
import { type AgentDefinition, APPROVAL_MODES } from "../config/agent-definition.js";
import { createExecutor } from "../exec/create-executor.js";
import type { Executor } from "../exec/executor.js";
import type { ApprovalMode } from "../tools/tool-approval.js";
import type { ToolSources } from "./open-tool-sources.js";

/** The settings a child inherits, which its definition may narrow and never widen. */
export interface InheritedSettings {
  /** Approval mode of host tool calls (`unlisted` when unset). */
  approval: ApprovalMode;
  /** Where commands run; undefined: no execution. */
  executor: Executor | undefined;
  /** Whether `` !`cmd` `` of trusted skills runs when they load. */
  shellPreRender: boolean;
}

/** A child's settings, and what its definition asked for that was narrowed to its parent's. */
export interface NarrowedSettings extends InheritedSettings {
  /** One sentence per request that was not taken (for `agent-start`'s `narrowed`). */
  narrowed: string[];
}

/** How strongly an executor confines a command: no execution, an isolated one, plain local processes. */
function confinement(executor: Executor | undefined): number {
  if (executor === undefined) return 2;
  return executor.kind === "local" ? 0 : 1;
}

/**
 * The parent's approval mode, executor and pre-render setting with `definition`'s requests applied where
 * they are stricter: a stricter approval mode, no executor or a more confining one than the parent's,
 * pre-rendering off. A looser request keeps the parent's setting and is named in `narrowed`.
 */
export function narrowSettings(parent: InheritedSettings, definition: AgentDefinition): NarrowedSettings {
  const narrowed: string[] = [];
  const who = `agent '${definition.name}' (${definition.source})`;
  let approval = parent.approval;
  if (definition.approval !== undefined) {
    if (APPROVAL_MODES.indexOf(definition.approval) >= APPROVAL_MODES.indexOf(parent.approval))
      approval = definition.approval;
    else
      narrowed.push(
        `${who} asked for approval '${definition.approval}'; it keeps its parent's stricter '${parent.approval}'.`,
      );
  }
  let executor = parent.executor;
  const asked = definition.executor;
  if (asked === "none") executor = undefined;
  else if (asked !== undefined && asked !== "auto" && asked !== parent.executor?.kind) {
    const wanted = asked === "local" ? 0 : 1;
    if (parent.executor !== undefined && wanted > confinement(parent.executor))
      executor = createExecutor({ kind: asked }).executor;
    else
      narrowed.push(
        `${who} asked for executor '${asked}'; it runs ${
          parent.executor === undefined
            ? "no commands, as its parent"
            : `on its parent's '${parent.executor.kind}'`
        } (a subagent may only run commands more confined than its parent).`,
      );
  }
  let shellPreRender = parent.shellPreRender;
  if (definition.shellPreRender === false) shellPreRender = false;
  else if (definition.shellPreRender === true && !parent.shellPreRender)
    narrowed.push(
      `${who} asked for shellPreRender; it stays off as its parent has it (skills' !\`cmd\` stay as written).`,
    );
  return { approval, executor, shellPreRender, narrowed };
}

/** The parent's catalog narrowed by the definition's `skills` allowlist (all of it without one). */
export function narrowCatalog(catalog: Catalog, skills: readonly string[] | undefined): Catalog {
  return skills === undefined ? catalog : filterCatalog(catalog, skills);
}

/**
 * Whether a tool name is offered to a child: named by `allow` (every name when it is undefined) and not by
 * `deny` (Claude Code's `disallowedTools`, which wins).
 */
function toolFilter(
  allow: readonly string[] | undefined,
  deny: readonly string[] | undefined,
): (name: string) => boolean {
  const allowed = allow === undefined ? () => true : allow.length === 0 ? () => false : picomatch([...allow]);
  const denied = deny === undefined || deny.length === 0 ? () => false : picomatch([...deny]);
  return (name) => allowed(name) && !denied(name);
}

/**
 * The parent's host tools the definition's `tools` names (all of them when it names none), without those
 * its `disallowedTools` names.
 */
export function narrowTools(
  tools: ToolSet | undefined,
  names: readonly string[] | undefined,
  denied?: readonly string[],
): { tools: ToolSet } | undefined {
  if (tools === undefined) return undefined;
  if (names === undefined && denied === undefined) return { tools };
  const matches = toolFilter(names, denied);
  return { tools: Object.fromEntries(Object.entries(tools).filter(([name]) => matches(name))) };
}

/**
 * The parent's tool sources as the child sees them: only the registered tools its definition names, the
 * parent's approval settings (with `mode`, the child's narrowed mode) and `onApproval` labelled with the
 * agent, never started or closed by it.
 */
export function childToolSources(
  parent: ToolSources,
  definition: AgentDefinition,
  mode?: ApprovalMode,
): ToolSources {
  const matches = toolFilter(definition.tools, definition.disallowedTools);
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
      // A subagent cannot pause its parent's turn for the client: its calls that need approval are asked
      // through `onApproval` when there is one, else refused.
      defer: false,
      ...(mode === undefined ? {} : { mode }),
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
