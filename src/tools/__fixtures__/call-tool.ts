import type { Tool } from "ai";
import { expect } from "vitest";

/**
 * Calls a tool the way the AI SDK does (`toolCallId` default `call-1`) and returns its output, asserting
 * that every outcome is a string result for the model, never a throw or an object.
 */
export async function callTool(
  tools: Record<string, Tool>,
  name: string,
  input: unknown,
  toolCallId = "call-1",
): Promise<string> {
  const execute = tools[name]?.execute;
  if (execute === undefined) throw new Error(`no tool ${name}`);
  const output: unknown = await execute(
    input as never,
    { toolCallId, messages: [], context: undefined } as never,
  );
  expect(typeof output).toBe("string");
  return output as string;
}
