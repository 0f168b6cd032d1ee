import type { Tool } from "ai";
import { expect } from "vitest";
import { isSkillToolResult, type SkillToolResult } from "../skill-tool-result.js";

/**
 * Calls a tool the way the AI SDK does (`toolCallId` default `call-1`) and returns its structured result,
 * asserting that every outcome is a `SkillToolResult` for the model, never a throw or another shape.
 */
export async function callToolResult(
  tools: Record<string, Tool>,
  name: string,
  input: unknown,
  toolCallId = "call-1",
): Promise<SkillToolResult> {
  const execute = tools[name]?.execute;
  if (execute === undefined) throw new Error(`no tool ${name}`);
  const output: unknown = await execute(
    input as never,
    { toolCallId, messages: [], context: undefined } as never,
  );
  expect(isSkillToolResult(output)).toBe(true);
  return output as SkillToolResult;
}

/** {@link callToolResult}'s text: what the model reads. */
export async function callTool(
  tools: Record<string, Tool>,
  name: string,
  input: unknown,
  toolCallId = "call-1",
): Promise<string> {
  return (await callToolResult(tools, name, input, toolCallId)).text;
}
