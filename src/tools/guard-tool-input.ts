/**
 * The cap on tool-argument size. A model can emit arguments of any size (20 MB were seen); such a call is
 * not executed — the model gets an error result saying so — and {@link capToolCallInputs} replaces the
 * arguments in the message history, so they are neither sent back to the model nor stored.
 */
import type { ModelMessage, Tool } from "ai";
import { type SkillToolResult, toolFailure } from "./skill-tool-result.js";

/** Default cap on one tool call's arguments: 1 MiB of JSON. */
export const MAX_TOOL_INPUT_BYTES = 1024 * 1024;

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Size of a tool input in bytes of JSON (a string input counts as given). */
export function toolInputBytes(input: unknown): number {
  const json = typeof input === "string" ? input : JSON.stringify(input ?? null);
  return Buffer.byteLength(json ?? "", "utf8");
}

/** What the model reads when its arguments are over the cap. */
export function oversizedInputMessage(toolName: string, bytes: number, maxBytes: number): string {
  return `The arguments of ${toolName} were ${formatBytes(bytes)}, over the ${formatBytes(maxBytes)} limit; the call was not run and the arguments were dropped. Pass large data as files (skill_run inputs, or a file the command reads) or in smaller pieces.`;
}

/** `tool` whose `execute` answers an oversized input with an error result instead of running. */
export function guardToolInput(toolName: string, tool: Tool, maxBytes: number): Tool {
  const execute = tool.execute;
  if (execute === undefined) return tool;
  return {
    ...tool,
    execute: (input: unknown, options: Parameters<typeof execute>[1]) => {
      const bytes = toolInputBytes(input);
      if (bytes > maxBytes)
        return toolFailure(oversizedInputMessage(toolName, bytes, maxBytes)) as SkillToolResult;
      return execute(input, options);
    },
  } as Tool;
}

/**
 * `messages` with every tool call whose arguments exceed `maxBytes` replaced by a short note, so an
 * oversized call is neither stored nor re-sent to the model. Returns the same array when nothing was over.
 */
export function capToolCallInputs(
  messages: ModelMessage[],
  maxBytes: number = MAX_TOOL_INPUT_BYTES,
): ModelMessage[] {
  let changed = false;
  const capped = messages.map((message) => {
    if (message.role !== "assistant" || typeof message.content === "string") return message;
    let touched = false;
    const content = message.content.map((part) => {
      if (part.type !== "tool-call") return part;
      const bytes = toolInputBytes(part.input);
      if (bytes <= maxBytes) return part;
      touched = true;
      return { ...part, input: { omitted: `arguments of ${formatBytes(bytes)} dropped (over the limit)` } };
    });
    if (!touched) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? capped : messages;
}
