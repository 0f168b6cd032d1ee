/**
 * `skill_run`, the default command tool: runs a command in a skill's folder in the session workspace.
 * An MCP-served skill runs only once the user approved it, from its verified files; any other skill only
 * when trusted. The command's latest output line is reported as progress while it runs.
 */
import { type Tool, tool } from "ai";
import { z } from "zod";
import type { SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";
import type { SkillRunConfig } from "../exec/run-config.js";
import { runSkillCommand, type SkillRunResult } from "../exec/run-skill-command.js";
import type { McpSkillRuns } from "./mcp-client/prepare-mcp-skill-run.js";
import { SKILL_RUN_DESCRIPTION, SkillRunInput } from "./skill-run-input.js";
import { type SkillToolResult, toolFailure } from "./skill-tool-result.js";
import type { ToolApprovalOptions } from "./tool-approval.js";
import { progressReporter, type ToolProgressListener } from "./tool-progress.js";

/** What `skill_run` takes from the skill tools it belongs to. */
export interface SkillRunToolDeps {
  session: SkillSession;
  approval: ToolApprovalOptions | undefined;
  onProgress: ToolProgressListener | undefined;
  /** A run's configuration with the session's lookup (undefined without an executor). */
  runConfig: (abortSignal?: AbortSignal) => SkillRunConfig | undefined;
  /** The refusal of an untrusted skill's commands, if it is one. */
  untrusted: (record: SkillRecord | undefined) => Promise<SkillToolResult | undefined>;
  /** The tool result of a run, rendered as the profile renders runs. */
  runResult: (result: SkillRunResult) => SkillToolResult;
  /** What the input calls the skill: `name` (default) or `skill` (profiles that say so). */
  param: "name" | "skill";
}

/** The `skill_run` tool. */
export function createSkillRunTool(deps: SkillRunToolDeps): Tool {
  const { session, approval, onProgress, runConfig, untrusted, runResult } = deps;
  let mcpRuns: McpSkillRuns | undefined;
  const execute = async (
    request: SkillRunInput,
    { abortSignal, toolCallId }: { abortSignal?: AbortSignal | undefined; toolCallId: string },
  ): Promise<SkillToolResult> => {
    let config = runConfig(abortSignal);
    if (config === undefined) return toolFailure("skill_run is not configured.");
    // An MCP-served skill runs only once the user approved it, from its verified files.
    const record = config.lookup.getSkill(request.name);
    if (record?.origin.kind === "mcp") {
      // Loaded only when an MCP-served skill runs (commands without MCP servers never import it).
      const { createMcpSkillRuns, prepareMcpSkillRun } = await import(
        "./mcp-client/prepare-mcp-skill-run.js"
      );
      mcpRuns ??= createMcpSkillRuns();
      const prepared = await prepareMcpSkillRun({
        record,
        catalog: session.catalog,
        approval,
        runs: mcpRuns,
        toolCallId,
        command: request.command,
        ...(abortSignal === undefined ? {} : { abortSignal }),
      }).catch((error: unknown) => ({ ok: false as const, message: errorMessage(error) }));
      if (!prepared.ok) return toolFailure(prepared.message);
      const { getSkill } = config.lookup;
      config = {
        ...config,
        lookup: {
          ...config.lookup,
          getSkill: (name) => (name === request.name ? prepared.record : getSkill(name)),
        },
      };
    } else {
      const refused = await untrusted(record);
      if (refused !== undefined) return refused;
    }
    const progress = progressReporter(onProgress, { toolCallId, toolName: "skill_run" });
    if (onProgress !== undefined)
      config = {
        ...config,
        environment: { ...config.environment, onOutputLine: (line) => progress.report({ message: line }) },
      };
    try {
      return runResult(await runSkillCommand(request, config));
    } finally {
      progress.done();
    }
  };
  return deps.param === "skill"
    ? tool({
        description: SKILL_RUN_DESCRIPTION,
        inputSchema: SkillRunInput.omit({ name: true }).extend({
          skill: z.string().describe("Skill name."),
        }),
        execute: ({ skill, ...rest }, callOptions) => execute({ ...rest, name: skill }, callOptions),
      })
    : tool({
        description: SKILL_RUN_DESCRIPTION,
        inputSchema: SkillRunInput,
        execute: (input, callOptions) => execute(input, callOptions),
      });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
