/**
 * What every skill tool handler returns: the text the model reads (written by the tool's profile),
 * whether the call failed, and — for `skill_run` and script tools — the run as data. The AI SDK sends the
 * model `text` (`toModelOutput`); the MCP server maps `isError` and `run` to `isError` and
 * `structuredContent`; a host with its own loop reads whichever it needs.
 */
import type { ToolResultPart } from "ai";
import type { SkillRunOutput } from "./skill-run-output.js";

/** The result of one skill tool call. */
export interface SkillToolResult {
  /** What the model reads, in the profile's words. */
  text: string;
  /**
   * True when the call did not do what was asked: unknown skill, missing file, refused path or command,
   * invalid or oversized arguments. A command that ran and exited non-zero is not an error (its exit code
   * is in {@link SkillToolResult.run}).
   */
  isError: boolean;
  /** The run, for `skill_run` and script tool calls that executed (absent when refused). */
  run?: SkillRunOutput;
}

/** A successful result with `text` for the model. */
export function toolSuccess(text: string): SkillToolResult {
  return { text, isError: false };
}

/** A failed result with `text` for the model (what went wrong and what to do next). */
export function toolFailure(text: string): SkillToolResult {
  return { text, isError: true };
}

/** True for a {@link SkillToolResult} (what skillrt's tools return; a host tool may return anything). */
export function isSkillToolResult(value: unknown): value is SkillToolResult {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { text?: unknown }).text === "string" &&
    typeof (value as { isError?: unknown }).isError === "boolean"
  );
}

/**
 * The AI SDK `toModelOutput` of every skill tool: the model reads `text`, as an error result when the call
 * failed (providers that have the notion, e.g. Anthropic's `is_error`, tell the model).
 */
export function skillToolModelOutput({ output }: { output: SkillToolResult }): ToolResultPart["output"] {
  return output.isError ? { type: "error-text", value: output.text } : { type: "text", value: output.text };
}

/**
 * A tool's output as the model saw it: a {@link SkillToolResult}'s text and error flag; any other output
 * (a host tool's) as is, not an error.
 */
export function toolOutputSeen(output: unknown): { output: unknown; isError: boolean } {
  return isSkillToolResult(output)
    ? { output: output.text, isError: output.isError }
    : { output, isError: false };
}
