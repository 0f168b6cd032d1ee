/**
 * Approvals for host tools (MCP server tools and tools registered in code): before a call runs, a call that
 * is not pre-approved is put to the user through `onApproval`. Pre-approved: a tool named by an active
 * skill's `allowed-tools` (Claude Code's meaning), by the config's `tools.allow`, answered `always`
 * earlier in the conversation, or (in the default `unlisted` mode, with no `onApproval` to ask)
 * registered by the program itself rather than by an MCP server. A refused
 * call is a tool result the model reads; it never throws.
 *
 * The check runs inside the tool's `execute`, after the AI SDK has validated the arguments against the
 * tool's schema, so a call with bad arguments is answered with the schema error and never asked about.
 * (The AI SDK's own `needsApproval` ends the run to wait for an approval message, which suits UI chat
 * transports; an answer awaited inside the call keeps a terminal turn and a library callback in one run.)
 */
import type { JSONValue, Tool } from "ai";
import { matchesAllowedTool, parseAllowedTool } from "./match-allowed-tool.js";
import type { RegisteredTool } from "./tool-registry.js";

/**
 * When calls are put to the user: `never`, `unlisted` (default: calls not pre-approved; without
 * `onApproval`, tools registered in code run and MCP server tools are refused), `always` (every call not
 * answered `always`).
 */
export type ApprovalMode = "never" | "unlisted" | "always";

/** A call waiting for an answer. */
export interface ToolApprovalRequest {
  toolName: string;
  toolCallId: string;
  input: unknown;
  /** The MCP server of the tool, if any. */
  server?: string;
  /** The subagent whose call it is (absent for the agent's own calls). */
  agent?: string;
  /**
   * Set when an active skill names the tool in its `allowed-tools` but is not trusted, so it pre-approves
   * nothing: which skill, and the command that trusts it (for the user's question or refusal).
   */
  untrustedGrant?: { skill: string; howToTrust: string };
}

/** An answer: run it, refuse it (optionally saying why), or run it and every later call of this tool. */
export type ToolApprovalAnswer = "yes" | "no" | "always" | { deny: string };

/** Asks the user; called one call at a time (answers are awaited in order). */
export type OnToolApproval = (
  request: ToolApprovalRequest,
) => ToolApprovalAnswer | Promise<ToolApprovalAnswer>;

/** Approval settings (config `tools.approval` and `tools.allow`, plus the host's callback). */
export interface ToolApprovalOptions {
  /** Default `unlisted`. */
  mode?: ApprovalMode;
  /** Pre-approved tools, in `allowed-tools` syntax (`mcp__tracker__create_issue`, `mcp__tracker__*`, `mcp__tracker`). */
  allow?: readonly string[];
  /** Asked for every call that needs approval. Without it such calls are refused. */
  onApproval?: OnToolApproval;
  /**
   * Put each call that needs approval to the client the AI SDK's way instead of asking `onApproval`: the
   * turn ends with the call waiting (a `tool-approval-request` event, kept in the saved history), and the
   * next turn, sent with the client's answer (`SendOptions.approvals`), runs it or refuses it. A call is
   * never run without that answer. For servers whose turns outlive no request (`skillrt serve`). Default
   * false.
   */
  defer?: boolean;
}

/** Why a call needs no question, or undefined when it needs one. */
export type PreapprovalCheck = (tool: RegisteredTool) => string | undefined;

/** A refused call, as the tool's output (the model reads `message`). */
export interface ToolRefusal {
  refused: true;
  message: string;
}

/** True for the output of a refused call. */
export function isToolRefusal(value: unknown): value is ToolRefusal {
  return typeof value === "object" && value !== null && (value as { refused?: unknown }).refused === true;
}

/** Wraps host tools with the approval check; one instance per conversation (it remembers `always`). */
export interface ToolApprovals {
  /** The tool with the check in front of its `execute` (the same object for the same registered tool). */
  wrap(registered: RegisteredTool): Tool;
  /** Why `tool` would run without a question now, or undefined. */
  preapproval(tool: RegisteredTool): string | undefined;
  /** With `defer`: records that the client approved call `toolCallId`, so its deferred execution may run. */
  grant(toolCallId: string): void;
}

/**
 * Creates the approvals of one conversation. `skillGrants` tells whether an active skill's `allowed-tools`
 * names the tool (read at call time, so unloading the skill takes the pre-approval away).
 */
export function createToolApprovals(
  options: ToolApprovalOptions,
  skillGrants: PreapprovalCheck,
  untrustedGrant?: (tool: RegisteredTool) => ToolApprovalRequest["untrustedGrant"],
): ToolApprovals {
  const mode = options.mode ?? "unlisted";
  const allow = (options.allow ?? [])
    .map(parseAllowedTool)
    .filter((e) => e !== undefined && e.pattern === undefined);
  const always = new Set<string>();
  // Calls the client approved (deferred approvals): only these run when the tool needs approval.
  const granted = new Set<string>();
  const wrapped = new WeakMap<RegisteredTool, Tool>();
  let queue: Promise<unknown> = Promise.resolve();

  const preapproval = (tool: RegisteredTool): string | undefined => {
    if (mode === "never") return "approvals are off (tools.approval never)";
    if (always.has(tool.name)) return "answered always earlier in this conversation";
    if (mode === "always") return undefined;
    const entry = allow.find((e) => e !== undefined && matchesAllowedTool(e, tool));
    if (entry !== undefined) return `listed in tools.allow (${entry.raw})`;
    // Without a callback to ask, a tool the program registered itself runs; MCP server tools are refused.
    if (tool.server === undefined && options.onApproval === undefined)
      return "registered by the program (not from an MCP server)";
    return skillGrants(tool);
  };

  const ask = (request: ToolApprovalRequest): Promise<ToolApprovalAnswer> => {
    const onApproval = options.onApproval;
    if (onApproval === undefined) return Promise.resolve("no");
    const answer = queue.then(() => onApproval(request));
    queue = answer.catch(() => undefined);
    return answer;
  };

  return {
    preapproval,
    grant(toolCallId) {
      granted.add(toolCallId);
    },
    wrap(registered) {
      const existing = wrapped.get(registered);
      if (existing !== undefined) return existing;
      const original = registered.tool;
      const execute = original.execute;
      if (execute === undefined) return original;
      const tool: Tool = {
        ...original,
        execute: async (input: unknown, callOptions: Parameters<typeof execute>[1]) => {
          if (preapproval(registered) === undefined && options.defer === true) {
            // The AI SDK ran this call after an approval response; only the client's approval lets it run.
            if (!granted.has(callOptions.toolCallId))
              return refusal(registered.name, "the client did not approve it");
          } else if (preapproval(registered) === undefined) {
            let answer: ToolApprovalAnswer;
            try {
              const grant = untrustedGrant?.(registered);
              answer = await ask({
                toolName: registered.name,
                toolCallId: callOptions.toolCallId,
                input,
                ...(registered.server === undefined ? {} : { server: registered.server }),
                ...(grant === undefined ? {} : { untrustedGrant: grant }),
              });
            } catch (error) {
              answer = {
                deny: `asking for approval failed: ${error instanceof Error ? error.message : String(error)}`,
              };
            }
            if (answer === "always") always.add(registered.name);
            else if (answer !== "yes")
              return refusal(registered.name, answer === "no" ? undefined : answer.deny);
          }
          return execute(input as never, callOptions);
        },
        toModelOutput: async (outputOptions: { toolCallId: string; input: unknown; output: unknown }) => {
          if (isToolRefusal(outputOptions.output))
            return { type: "error-text", value: outputOptions.output.message };
          if (original.toModelOutput !== undefined) return original.toModelOutput(outputOptions as never);
          return defaultOutput(outputOptions.output);
        },
      } as Tool;
      wrapped.set(registered, tool);
      return tool;
    },
  };
}

function refusal(name: string, reason: string | undefined): ToolRefusal {
  return {
    refused: true,
    message: `The call of ${name} was not approved${reason === undefined ? " by the user" : `: ${reason}`}. It did not run. Do not call it again unless the user asks; continue without it or tell the user what you need.`,
  };
}

function defaultOutput(
  output: unknown,
): { type: "text"; value: string } | { type: "json"; value: JSONValue } {
  if (typeof output === "string") return { type: "text", value: output };
  return { type: "json", value: (output ?? null) as JSONValue };
}
