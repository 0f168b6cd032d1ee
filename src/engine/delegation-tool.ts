/**
 * The delegation tool the model calls to hand a task to a subagent, named and shaped per profile: the
 * canonical `agent_run { agent, task }`, Claude Code's `Task { description, prompt, subagent_type }`. Its
 * description lists the agents; the model reads only the child's final answer and a one-line summary.
 */
import { type Tool, tool } from "ai";
import { z } from "zod";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { ProfileName } from "../tools/profile-types.js";
import { type SkillToolResult, skillToolModelOutput, toolFailure } from "../tools/skill-tool-result.js";
import type { DelegationResult, Delegator } from "./delegate-to-agent.js";

/** A delegation tool's result: what the model reads, and the child's result as data. */
export interface DelegationToolResult extends SkillToolResult {
  delegation?: DelegationResult;
}

/** Name of the delegation tool under `profile`. */
export function delegationToolName(profile: ProfileName | undefined): string {
  return profile === "claude" ? "Task" : "agent_run";
}

/** The delegation tool of `delegator` under `profile`, by name (empty when there is no agent). */
export function createDelegationTool(
  delegator: Delegator,
  profile: ProfileName | undefined,
): Record<string, Tool> {
  if (delegator.agents.length === 0) return {};
  const names = delegator.agents.map((a) => a.name) as [string, ...string[]];
  const listing = delegator.agents.map((a) => `- ${a.name}: ${a.description}`).join("\n");
  const run = async (
    agent: string,
    task: string,
    toolCallId: string,
    abortSignal: AbortSignal | undefined,
  ): Promise<DelegationToolResult> => {
    try {
      const result = await delegator.run(agent, task, toolCallId, {
        ...(abortSignal === undefined ? {} : { abortSignal }),
      });
      return { text: answerText(result), isError: result.aborted, delegation: result };
    } catch (error) {
      if (SkillrtError.isInstance(error)) return toolFailure(error.message);
      return toolFailure(
        `Agent '${agent}' failed: ${error instanceof Error ? error.message : String(error)}. Try again or do the task yourself.`,
      );
    }
  };
  const intro =
    "Hand a self-contained task to a subagent. It works in its own context with its own skills and returns " +
    "only its final answer, so give it everything it needs in the task. Available agents:\n";
  if (profile === "claude") {
    return {
      Task: tool({
        description: `Launch a new agent to handle a complex, multi-step task autonomously. ${intro}${listing}`,
        inputSchema: z.object({
          description: z.string().describe("A short (3-5 word) description of the task."),
          prompt: z.string().describe("The task for the agent to perform."),
          subagent_type: z.enum(names).describe("The type of specialized agent to use for this task."),
        }),
        execute: (input, { toolCallId, abortSignal }) =>
          run(input.subagent_type, input.prompt, toolCallId, abortSignal),
        toModelOutput: skillToolModelOutput,
      }),
    };
  }
  return {
    agent_run: tool({
      description: `${intro}${listing}`,
      inputSchema: z.object({
        agent: z.enum(names).describe("The agent to run, exactly as listed."),
        task: z.string().describe("The task, with everything the agent needs to know."),
      }),
      execute: (input, { toolCallId, abortSignal }) => run(input.agent, input.task, toolCallId, abortSignal),
      toModelOutput: skillToolModelOutput,
    }),
  };
}

/** The child's answer, then one line saying what it took. */
export function answerText(result: DelegationResult): string {
  const facts = [
    `${result.steps} step${result.steps === 1 ? "" : "s"}`,
    `${result.usage.totalTokens} tokens`,
    ...(result.skillsLoaded.length === 0 ? [] : [`skills loaded: ${result.skillsLoaded.join(", ")}`]),
    ...(result.files.length === 0 ? [] : [`files: ${result.files.join(", ")}`]),
  ];
  const state = result.aborted
    ? " (aborted)"
    : result.stepLimitReached
      ? " (stopped at its step limit; the answer may be unfinished)"
      : result.limitReached?.limit === "output"
        ? " (stopped at its output cap; the answer is unfinished)"
        : result.limitReached?.limit === "deadline"
          ? " (stopped at its turn deadline; the answer is unfinished)"
          : "";
  return `${result.text.trim() === "" ? "(no answer)" : result.text}\n\n[agent ${result.agent}${state}: ${facts.join("; ")}]`;
}
