/**
 * Serves the skill tools of a {@link SkillTools} set over MCP (`tools/list`, `tools/call`). The handlers
 * are set on the low-level server rather than through `registerTool` so that the listed input schemas are
 * exactly the engine's (`jsonSchemas()`), and so an unknown skill name is answered by the session (with
 * the closest names) instead of being rejected by the name enum before the tool runs. Each tool's
 * structured result maps to the MCP result: `isError` for a failed call, `structuredContent` (with the
 * tool's `outputSchema`) for a run; its effects map to the `readOnlyHint`/`destructiveHint` annotations.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "ai";
import { z } from "zod";
import type { SkillTools } from "../tools/create-skill-tools.js";
import { SkillRunOutput } from "../tools/skill-run-output-schema.js";
import { isSkillToolResult } from "../tools/skill-tool-result.js";
import type { ToolProgressListener } from "../tools/tool-progress.js";

/** The `outputSchema` of the tools that run commands (`skill_run`, script tools). */
const RUN_OUTPUT_SCHEMA = objectJsonSchema(SkillRunOutput, "output");

/** Controls the served tool set. */
export interface ServedSkillTools {
  /** Replaces the tool set (after a catalog change) and tells the client the list changed. */
  replace(tools: SkillTools): Promise<void>;
  /** Finds script tools of skills loaded outside a tool call (prompts) and announces new ones. */
  refresh(): Promise<void>;
}

/** What {@link serveSkillTools} needs besides the server. */
export interface ServeSkillToolsOptions {
  tools: SkillTools;
  /** Name of the load tool; its description carries the skill catalog. */
  loadToolName: () => string;
  /** Where the tools' progress reports go (their `onProgress`): to the client that asked for them. */
  progress?: ProgressRoutes;
}

/** Routes the skill tools' progress reports to the call that asked for progress (an MCP `progressToken`). */
export interface ProgressRoutes {
  /** The skill tools' `onProgress`. */
  listener: ToolProgressListener;
  /** Sends `toolCallId`'s reports to `sink` until the returned function is called. */
  route(toolCallId: string, sink: ToolProgressListener): () => void;
}

/** Empty routes: a report of a call nobody routed is dropped. */
export function createProgressRoutes(): ProgressRoutes {
  const sinks = new Map<string, ToolProgressListener>();
  return {
    listener: (progress) => sinks.get(progress.toolCallId)?.(progress),
    route(toolCallId, sink) {
      sinks.set(toolCallId, sink);
      return () => {
        sinks.delete(toolCallId);
      };
    },
  };
}

/**
 * Installs `tools/list` and `tools/call` on `mcp` (call before `connect`). Listed: the profile tools,
 * `skill_search`, `skill_run` when configured, and the script tools of loaded skills. A call's text is the
 * engine tool's result; it is an error result (`isError`) when the session reported a failure, a
 * command tool was refused without running, or a run was killed by its timeout or cancelled.
 */
export function serveSkillTools(mcp: McpServer, options: ServeSkillToolsOptions): ServedSkillTools {
  let current = options.tools;
  let base = new Set(Object.keys(current.tools));
  let announced = "";
  let callCount = 0;

  const listedNames = (): string[] => {
    const scripts = current.activeToolNames().filter((n) => !base.has(n) && current.tools[n] !== undefined);
    return [...base, ...scripts];
  };
  const announceIfChanged = (): void => {
    const signature = listedNames().join("\n");
    if (signature === announced) return;
    announced = signature;
    mcp.sendToolListChanged();
  };

  mcp.server.registerCapabilities({ tools: { listChanged: true } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => {
    const loadTool = options.loadToolName();
    const catalog = current.systemPrompt();
    announced = listedNames().join("\n");
    const tools: McpTool[] = listedNames().map((name) => {
      const raw = current.tools[name]?.description;
      const description = typeof raw === "string" ? raw : "";
      const effects = current.effects(name);
      return {
        name,
        description: name === loadTool && catalog !== "" ? `${description}\n\n${catalog}` : description,
        inputSchema: inputJsonSchema(current.tools[name]),
        ...(effects?.readOnly === false ? { outputSchema: RUN_OUTPUT_SCHEMA } : {}),
        ...(effects === undefined
          ? {}
          : {
              annotations: {
                readOnlyHint: effects.readOnly,
                destructiveHint: effects.destructive,
                idempotentHint: effects.readOnly,
                openWorldHint: effects.openWorld,
              },
            }),
      };
    });
    return { tools };
  });

  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = listedNames().includes(name) ? current.tools[name] : undefined;
    if (tool?.execute === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool '${name}'. Available tools: ${listedNames().join(", ")}.`,
      );
    }
    const input = checkInput(tool, request.params.arguments ?? {});
    if (!input.ok) return errorResult(`Invalid arguments for ${name}: ${input.message}`);
    callCount += 1;
    const toolCallId = `mcp-${callCount}`;
    // A client that sent a progress token hears how a long run goes (skill_run's latest output line).
    const progressToken = request.params._meta?.progressToken;
    let reports = 0;
    const unroute =
      progressToken === undefined || options.progress === undefined
        ? undefined
        : options.progress.route(toolCallId, (progress) => {
            reports += 1;
            void extra
              .sendNotification({
                method: "notifications/progress",
                params: {
                  progressToken,
                  progress: progress.progress ?? reports,
                  ...(progress.total === undefined ? {} : { total: progress.total }),
                  ...(progress.message === undefined ? {} : { message: progress.message }),
                },
              })
              .catch(() => undefined);
          });
    let output: unknown;
    try {
      output = await lastValue(
        await tool.execute(input.value, {
          toolCallId,
          messages: [],
          abortSignal: extra.signal,
          context: undefined,
        }),
      );
    } finally {
      unroute?.();
    }
    announceIfChanged();
    if (!isSkillToolResult(output))
      return { content: [{ type: "text", text: JSON.stringify(output ?? null) }] };
    if (output.isError) return errorResult(output.text);
    // A run the timeout (or a cancellation) killed did not do its job: a client must not read it as success.
    const killed = output.run !== undefined && (output.run.timed_out || output.run.aborted);
    return {
      content: [{ type: "text", text: output.text }],
      ...(output.run === undefined ? {} : { structuredContent: output.run }),
      ...(killed ? { isError: true } : {}),
    };
  });

  return {
    async replace(tools) {
      current = tools;
      base = new Set(Object.keys(tools.tools));
      await tools.prepare();
      announced = listedNames().join("\n");
      mcp.sendToolListChanged();
    },
    async refresh() {
      await current.prepare();
      announceIfChanged();
    },
  };
}

type CheckedInput = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Validates `args` against the tool's zod schema. A string that is merely not one of an enum's values
 * (a skill name the catalog does not have) passes through, so the session answers with the closest names.
 */
function checkInput(tool: Tool, args: Record<string, unknown>): CheckedInput {
  const schema = tool.inputSchema;
  if (!(schema instanceof z.ZodType)) return { ok: true, value: args };
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, value: parsed.data };
  const onlyUnknownNames = parsed.error.issues.every(
    (issue) =>
      issue.code === "invalid_value" &&
      issue.path.length === 1 &&
      typeof args[String(issue.path[0])] === "string",
  );
  if (onlyUnknownNames) return { ok: true, value: args };
  const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`);
  return { ok: false, message: `${issues.join("; ")}.` };
}

/** A tool's output (a streamed output keeps its last value). */
async function lastValue(output: unknown): Promise<unknown> {
  if (typeof output !== "object" || output === null || !(Symbol.asyncIterator in output)) return output;
  let last: unknown;
  for await (const part of output as AsyncIterable<unknown>) last = part;
  return last;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * The tool's input as an MCP `inputSchema` (an object schema). Input mode, so a field with a default
 * (a script tool's `args`) is optional, as it is for a caller.
 */
function inputJsonSchema(tool: Tool | undefined): McpTool["inputSchema"] {
  const zod = tool?.inputSchema;
  return zod instanceof z.ZodType ? objectJsonSchema(zod, "input") : { type: "object" };
}

/** A zod object schema as an MCP object schema (no `$schema` key, which some clients' validators reject). */
function objectJsonSchema(zod: z.ZodType, io: "input" | "output"): McpTool["inputSchema"] {
  const schema = z.toJSONSchema(zod, { io });
  if (schema.type !== "object") return { type: "object" };
  const { $schema: _drop, ...rest } = schema as Record<string, unknown>;
  return { ...rest, type: "object" };
}
