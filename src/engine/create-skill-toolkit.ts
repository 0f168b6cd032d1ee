/**
 * Skills for a plain AI SDK loop: `streamText({ model, prompt, ...toolkit })`,
 * `generateText({ … ...toolkit })` or `new ToolLoopAgent({ model, ...toolkit })`. The spread brings the
 * skill tools (with `skill_run` on skillrt's executor, the bubblewrap sandbox by default), the
 * instructions, the active tools and a `prepareStep` that re-renders both every step and rewrites the
 * history for the skill session. The developer keeps their own loop.
 */

import { randomUUID } from "node:crypto";
import {
  type LanguageModel,
  type ModelMessage,
  NoSuchToolError,
  type StopCondition,
  stepCountIs,
  type ToolCallRepairFunction,
  type ToolSet,
} from "ai";
import { withMcpSkills } from "../catalog/mcp-source/with-mcp-skills.js";
import type { Catalog } from "../catalog/types.js";
import { type AgentDefinition, type AgentSpec, mergeAgents } from "../config/agent-definition.js";
import { beginTurn } from "../context/load-mode.js";
import type { SkillSession } from "../context/skill-session.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { Executor } from "../exec/executor.js";
import type { SkillTools } from "../tools/create-skill-tools.js";
import { declaredMcpServers } from "../tools/declared-mcp-servers.js";
import type { McpServerStatus } from "../tools/mcp-client/create-mcp-tool-source.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { CallOptions } from "./call-options.js";
import { createDelegator, type DelegationOptions } from "./delegate-to-agent.js";
import { createDelegationTool } from "./delegation-tool.js";
import type { EngineEventListener } from "./engine-event.js";
import {
  chooseExecutor,
  openCatalog,
  openSkillLayer,
  type SkillLayer,
  type SkillLayerOptions,
} from "./open-skills.js";
import { openToolSources, type ToolSourceError, type ToolSources } from "./open-tool-sources.js";
import { createSkillStep } from "./skill-step.js";

/** Options of {@link createSkillToolkit}. */
export interface SkillToolkitOptions extends SkillLayerOptions {
  /** Your instructions, placed before the skill context (`instructions` of the spread). */
  instructions?: string;
  /** Session id (names the workspace). Default: a new UUID. */
  sessionId?: string;
  /** Most steps of the loop (`stopWhen` of the spread). Default 20. */
  maxSteps?: number;
  /**
   * Your own AI SDK tools, offered in every step beside the skill tools (in `tools` and `activeTools` of
   * the spread, kept by `prepareStep`) and run without approval questions, as `createSkillAgent`'s
   * `tools`. Merging them by hand (`tools: { ...toolkit.tools, mine }`) does not offer yours:
   * `prepareStep` sets the active tools every step and does not know them (a call of one fails with an
   * error naming this option). The skill tools of such a copy still work: a script tool a skill brings
   * when it loads, after the copy was made, is resolved when called. A name a skill tool has is refused.
   */
  tools?: ToolSet;
  /**
   * Called once when an MCP server cannot start or stops later (its tools are withdrawn; the loop goes on).
   * Default: passed to `onWarning`.
   */
  onToolSourceError?: (error: ToolSourceError) => void;
  /**
   * Subagents the model may delegate to (as `createSkillAgent`'s `agents`): the spread's tools then hold the
   * delegation tool (`agent_run`; `Task` under the claude profile). Children run on {@link model} unless
   * their definition names another (`delegation.models`). Default: none.
   */
  agents?: Readonly<Record<string, AgentSpec | AgentDefinition>>;
  /**
   * Depth, per-turn and concurrency limits of delegation (a turn: one call of your loop, from its step 0),
   * and the models of agents that name one.
   */
  delegation?: DelegationOptions;
  /** The model subagents inherit (your loop's model). Needed with {@link agents} that say `model: inherit`. */
  model?: LanguageModel;
  /** Receives the subagents' events (`agent-start`, `agent-event`, `agent-end`). */
  onAgentEvent?: EngineEventListener;
  /**
   * AI SDK call options (`temperature`, `providerOptions`, `headers`, `experimental_telemetry`, …) the spread
   * carries to your `streamText`/`generateText` call as they are. Default: none.
   */
  callOptions?: CallOptions;
}

/** What the toolkit's `prepareStep` returns every step. */
export interface SkillStepSettings {
  instructions: string;
  activeTools: string[];
  messages: ModelMessage[];
}

/**
 * The spreadable part (enumerable: exactly the AI SDK settings it sets) plus the session behind it and
 * `close()` (not enumerable, so a spread never passes them to the AI SDK).
 */
export interface SkillToolkit {
  /** The skill tools (a live record: script tools of a skill are added when it loads). */
  tools: ToolSet;
  /** Your instructions and the skill catalog (re-rendered each step by {@link prepareStep}). */
  instructions: string;
  /** Tools offered in the first step (re-gated each step by {@link prepareStep}). */
  activeTools: string[];
  /**
   * Before every step: re-renders the instructions (catalog, and loaded bodies in `system` placement),
   * re-gates the tools, and rewrites the history (unloaded skills' results become stubs; skills loaded at
   * start are shown after the first user message). To combine with your own `prepareStep`, call this
   * one from it and merge the results.
   */
  prepareStep(options: { stepNumber: number; messages: ModelMessage[] }): Promise<SkillStepSettings>;
  /** Stops after `maxSteps` steps (default 20): `streamText`/`generateText` alone stop after one. */
  stopWhen: StopCondition<ToolSet>;
  /**
   * When the model calls a tool the loop does not offer: a skill's script tool the loop's `tools` lacks
   * (a copy made before the skill loaded) is resolved from the live {@link tools} while the session
   * offers it; a tool you merged into `tools` by hand fails with an error saying to pass it as
   * `createSkillToolkit({ tools })`; other names fail as usual.
   */
  experimental_repairToolCall: ToolCallRepairFunction<ToolSet>;
  /** The disclosure state: what is loaded, the ledger, snapshots. */
  readonly session: SkillSession;
  readonly catalog: Catalog;
  readonly skillTools: SkillTools;
  /** Host tools (registered in code, and the MCP servers' tools while their server runs). */
  readonly toolRegistry: ToolRegistry;
  /** The configured MCP servers and their state. */
  mcpServers(): McpServerStatus[];
  /** Stops the MCP servers and deletes the workspace. */
  close(): Promise<void>;
}

/**
 * Builds the toolkit: catalog (default roots as in the CLI), a new skill session, a workspace and
 * executor (`auto`: the sandbox when it works) and the profile's tools, `skill_run` included whenever
 * there is an executor, and the host's tools (`toolRegistry`, `mcpServers`: started before it returns),
 * gated by the active skills and behind approvals (without `approval.onApproval`, calls that need approval
 * are refused with a message the model reads). One toolkit is one conversation: keep it for the
 * conversation's turns, and `close()` it.
 */
export async function createSkillToolkit(options: SkillToolkitOptions = {}): Promise<SkillToolkit> {
  const toolSources = openToolSources(options, {
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    onSourceError:
      options.onToolSourceError ??
      ((error) => options.onWarning?.(`tool source ${error.source}: ${error.message}`)),
  });
  const executor = chooseExecutor(options.executor);
  // Skills the MCP servers serve (SEP-2640) join the catalog as their servers start.
  const catalog = withMcpSkills(await openCatalog(options), toolSources.skills);
  const session = { requirementsEnv: options.env ?? process.env, ...options.session };
  const layer = await openSkillLayer(
    catalog,
    { ...options, session },
    {
      id: options.sessionId ?? randomUUID(),
      executor,
      toolSources,
    },
  );
  try {
    // The aworld profile starts the MCP servers its skills' tool_list names (AWorld's rule).
    const declared =
      options.profile === "aworld"
        ? declaredMcpServers(
            catalog.list(),
            toolSources.servers().map((s) => s.name),
          )
        : undefined;
    await toolSources.start(declared?.only === undefined ? {} : { only: declared.only });
  } catch (error) {
    await toolSources.close();
    await layer.dispose();
    throw error;
  }
  const step = createSkillStep(layer.session, layer.skillTools, {
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
  await step.prepare();
  const own = [
    ...Object.keys(options.tools ?? {}),
    ...(options.agents === undefined ? [] : ["agent_run", "Task"]),
  ];
  const clash = own.filter((name) => name in step.tools);
  if (clash.length > 0) {
    await toolSources.close();
    await layer.dispose();
    throw new SkillrtError({
      code: "invalid-argument",
      message: `createSkillToolkit: tools ${clash.join(", ")} have the names of skill tools; rename yours.`,
    });
  }
  const delegation = delegationTools(options, { catalog, layer, toolSources, executor });
  Object.assign(step.tools, options.tools, delegation.tools);
  const render = (messages?: ModelMessage[]) => {
    const rendered = step.render(messages);
    return { ...rendered, activeTools: [...rendered.activeTools, ...own.filter((n) => n in step.tools)] };
  };
  const first = render();
  let active = new Set(first.activeTools);
  const prepareStep = async ({
    stepNumber,
    messages,
  }: {
    stepNumber: number;
    messages: ModelMessage[];
  }): Promise<SkillStepSettings> => {
    // A new call of the loop is a new user turn: the frozen catalog (history placement) may change now.
    if (stepNumber === 0) {
      layer.session.renderer.refreshCatalog();
      beginTurn(layer.session);
      // The limit of subagents per turn counts afresh.
      delegation.beginTurn();
    }
    await step.prepare();
    const settings = { ...render(messages), messages: step.messages(messages) };
    active = new Set(settings.activeTools);
    return settings;
  };
  const repair: ToolCallRepairFunction<ToolSet> = async ({ toolCall, tools, error }) => {
    if (!NoSuchToolError.isInstance(error)) return null;
    const live = step.tools[toolCall.toolName];
    if (live !== undefined) {
      // `tools: { ...skills.tools, mine }` copied the skill tools before a skill loaded and brought its
      // script tools: the copy lacks them. The step's tools get the live one when the skill session offers
      // it this step (gated as always; approvals and trust are checked inside the tool), and the call runs.
      if (!active.has(toolCall.toolName)) return null;
      tools[toolCall.toolName] = live;
      return toolCall;
    }
    // A tool in the caller's `tools` but not in ours was merged by hand: say how to pass it instead.
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        `The model called '${toolCall.toolName}', which is not among the tools offered: the skill ` +
        "toolkit's prepareStep sets the active tools every step. If it is a tool of yours, pass it as " +
        `createSkillToolkit({ tools: { ${toolCall.toolName} } }) instead of merging it into the spread's tools.`,
    });
  };
  const toolkit = {
    ...options.callOptions,
    tools: step.tools,
    instructions: first.instructions,
    activeTools: first.activeTools,
    prepareStep,
    stopWhen: stepCountIs(options.maxSteps ?? 20),
    experimental_repairToolCall: repair,
  };
  return Object.defineProperties(toolkit, {
    session: { value: layer.session, enumerable: false },
    catalog: { value: catalog, enumerable: false },
    skillTools: { value: layer.skillTools, enumerable: false },
    toolRegistry: { value: toolSources.registry, enumerable: false },
    mcpServers: { value: () => toolSources.servers(), enumerable: false },
    close: {
      value: async () => {
        await toolSources.close();
        await layer.dispose();
      },
      enumerable: false,
    },
  }) as unknown as SkillToolkit;
}

/** The delegation tool of the toolkit's agents (none without agents), and how to start a turn's count. */
function delegationTools(
  options: SkillToolkitOptions,
  parts: { catalog: Catalog; layer: SkillLayer; toolSources: ToolSources; executor: Executor | undefined },
): { tools: ToolSet; beginTurn: () => void } {
  const { catalog, layer, toolSources, executor } = parts;
  if (options.agents === undefined) return { tools: {}, beginTurn: () => undefined };
  const definitions = mergeAgents({}, options.agents);
  const inherits = Object.values(definitions).filter((d) => d.model === "inherit");
  if (options.model === undefined && inherits.length > 0) {
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        `createSkillToolkit: agents ${inherits.map((d) => d.name).join(", ")} inherit the model; ` +
        "pass the model of your loop as createSkillToolkit({ model, agents }).",
    });
  }
  const { agents: _agents, tools: _tools, ...rest } = options;
  const delegator = createDelegator({
    // A model is needed only by agents that inherit it: checked above.
    options: { ...rest, model: options.model ?? "unused", catalog },
    definitions,
    // Children are full agents; imported lazily so the toolkit does not load the agent for nothing.
    create: async (childOptions) => (await import("./create-skill-agent.js")).createSkillAgent(childOptions),
    executor,
    toolSources,
    conversation: () => ({ id: layer.session.id, workspace: layer.workspace }),
    emit: () => options.onAgentEvent,
  });
  return { tools: createDelegationTool(delegator, options.profile), beginTurn: delegator.beginTurn };
}
