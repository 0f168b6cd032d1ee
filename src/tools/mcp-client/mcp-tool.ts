/**
 * One MCP server tool as an AI SDK tool named `mcp__<server>__<tool>` (Claude Code's naming): the server's
 * description (with its annotations spelled out) and JSON Schema; arguments are validated against that
 * schema before anything else happens (the AI SDK runs the validator while parsing the call, so a bad call
 * never reaches approval or the server); the result is a structured {@link McpToolResult}, shown to the
 * model as text.
 */

import { ErrorCode, McpError, type Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { type JSONSchema7, jsonSchema, type Tool, tool } from "ai";
import { failSpan, inSpan, SpanKind } from "../../util/trace-span.js";
import { type ProgressReporter, progressReporter, type ToolProgressListener } from "../tool-progress.js";
import type { McpConnection } from "./connect-mcp-server.js";
import { capText, DEFAULT_MCP_LIMITS, type McpLimits, stripControls } from "./mcp-limits.js";
import {
  failedCall,
  fromCallToolResult,
  limitMcpResult,
  type McpToolResult,
  mcpResultText,
} from "./mcp-tool-result.js";

const validators = new AjvJsonSchemaValidator();

/** The model-facing name of `tool` of `server`; characters providers refuse become `_`, at most 64. */
export function mcpToolName(server: string, toolName: string): string {
  return `mcp__${server}__${toolName}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

/**
 * The description the model sees: the server's (control characters removed, cut at `maxChars`, default
 * 2,048), then what its annotations say.
 */
export function describeMcpTool(
  server: string,
  def: McpTool,
  maxChars = DEFAULT_MCP_LIMITS.descriptionChars,
): string {
  const base = capText(
    stripControls(def.description ?? def.annotations?.title ?? def.title ?? def.name),
    maxChars,
    "description",
  );
  const a = def.annotations;
  const hints: string[] = [];
  if (a?.readOnlyHint === true) hints.push("read-only");
  if (a?.destructiveHint === true && a.readOnlyHint !== true) hints.push("destructive");
  if (a?.idempotentHint === true) hints.push("idempotent");
  if (a?.openWorldHint === true) hints.push("reaches outside systems");
  const suffix = hints.length === 0 ? "" : ` (${hints.join(", ")})`;
  return `${base}\n\n[MCP server '${server}' tool '${stripControls(def.name).slice(0, 100)}'${suffix}]`;
}

/**
 * Builds the AI SDK tool for `def` of `connection`'s server. Results are limited (`limitMcpResult`): secrets
 * redacted, text cut at `limits.resultChars`.
 */
export function mcpTool(
  connection: McpConnection,
  def: McpTool,
  limits: McpLimits = DEFAULT_MCP_LIMITS,
  onProgress?: ToolProgressListener,
): Tool<Record<string, unknown>, McpToolResult> {
  const server = connection.name;
  const name = mcpToolName(server, def.name);
  const schema = def.inputSchema as JSONSchema7;
  let validate: ((input: unknown) => { valid: boolean; errorMessage?: string | undefined }) | undefined;
  try {
    validate = validators.getValidator(def.inputSchema as Parameters<typeof validators.getValidator>[0]);
  } catch {
    // A schema Ajv cannot compile: the server validates the call itself.
    validate = undefined;
  }
  return tool({
    description: describeMcpTool(server, def, limits.descriptionChars),
    inputSchema: jsonSchema<Record<string, unknown>>(schema, {
      validate: (value) => {
        const result = validate?.(value ?? {});
        if (result === undefined || result.valid)
          return { success: true, value: (value ?? {}) as Record<string, unknown> };
        return {
          success: false,
          error: new Error(
            `the arguments do not match the input schema of ${name}: ${result.errorMessage ?? "invalid"}. Expected: ${truncate(JSON.stringify(def.inputSchema), 1500)}. Fix the arguments and call again.`,
          ),
        };
      },
    }),
    execute: async (input, { abortSignal, toolCallId }) => {
      const progress = progressReporter(onProgress, { toolCallId, toolName: name });
      try {
        return limitMcpResult(await tracedCall(input, abortSignal, progress), {
          redact: connection.redact,
          maxChars: limits.resultChars,
        });
      } finally {
        progress.done();
      }
    },
    toModelOutput: ({ output }) =>
      output.isError
        ? { type: "error-text", value: mcpResultText(output) }
        : { type: "text", value: mcpResultText(output) },
  });

  // The MCP conventions' client span of the call (`tools/call {tool}`); the result's error flag sets its status.
  function tracedCall(
    input: Record<string, unknown>,
    abortSignal: AbortSignal | undefined,
    progress: ProgressReporter,
  ): Promise<McpToolResult> {
    return inSpan(
      `tools/call ${def.name}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "mcp.method.name": "tools/call",
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": def.name,
          "skillrt.mcp.server": server,
        },
      },
      async (span) => {
        const result = await callServer(input, abortSignal, progress);
        if (result.isError && span !== undefined) failSpan(span, "the tool reported an error", "tool_error");
        return result;
      },
    );
  }

  async function callServer(
    input: Record<string, unknown>,
    abortSignal: AbortSignal | undefined,
    progress: ProgressReporter,
  ): Promise<McpToolResult> {
    if (!connection.alive())
      return failedCall(
        server,
        def.name,
        `MCP server '${server}' is not running, so ${name} cannot be called now. Continue without it or tell the user.`,
      );
    try {
      return fromCallToolResult(
        server,
        def.name,
        await connection.callTool(
          def.name,
          input,
          abortSignal,
          onProgress === undefined
            ? undefined
            : (update) =>
                progress.report(
                  update.message === undefined
                    ? update
                    : { ...update, message: connection.redact(update.message) },
                ),
        ),
      );
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && connection.alive())
        return failedCall(
          server,
          def.name,
          `${name} did not answer within ${connection.callTimeoutMs / 1000} s, so the call was cancelled (the limit is mcpServers.${server}.timeoutMs). Try a smaller request, continue without it, or tell the user.`,
        );
      const message = error instanceof Error ? error.message : String(error);
      const gone = !connection.alive();
      return failedCall(
        server,
        def.name,
        gone
          ? `MCP server '${server}' stopped during the call (${message}); its tools are withdrawn. Continue without it or tell the user.`
          : `the call failed: ${message}`,
      );
    }
  }
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
