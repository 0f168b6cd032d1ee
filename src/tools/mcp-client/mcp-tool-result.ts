/**
 * An MCP `CallToolResult` as a structured tool result, and the text the model reads from it: text parts
 * as they are, structured content as JSON when the server sent no text, images, audio and embedded
 * binary resources as metadata only (type, MIME type, size), and `isError` marked.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { capText, stripControls } from "./mcp-limits.js";

/** One non-text part of a result, described (never its bytes). */
export interface McpAttachment {
  type: "image" | "audio" | "resource" | "resource_link";
  mimeType?: string;
  /** Decoded size of base64 data, when there is data. */
  bytes?: number;
  uri?: string;
  name?: string;
}

/** The structured result of one MCP tool call (also for calls that never reached the server). */
export interface McpToolResult {
  server: string;
  /** The tool's name on its server. */
  tool: string;
  isError: boolean;
  /** Text parts, joined by newlines (or the reason the call failed). */
  text: string;
  structuredContent?: Record<string, unknown>;
  attachments: McpAttachment[];
}

/** Maps a server's answer. */
export function fromCallToolResult(server: string, tool: string, result: CallToolResult): McpToolResult {
  const texts: string[] = [];
  const attachments: McpAttachment[] = [];
  for (const part of result.content ?? []) {
    switch (part.type) {
      case "text":
        texts.push(part.text);
        break;
      case "image":
      case "audio":
        attachments.push({ type: part.type, mimeType: part.mimeType, bytes: base64Bytes(part.data) });
        break;
      case "resource": {
        const r = part.resource;
        if ("text" in r && typeof r.text === "string") texts.push(r.text);
        else
          attachments.push({
            type: "resource",
            uri: r.uri,
            ...(r.mimeType === undefined ? {} : { mimeType: r.mimeType }),
            ...("blob" in r && typeof r.blob === "string" ? { bytes: base64Bytes(r.blob) } : {}),
          });
        break;
      }
      case "resource_link":
        attachments.push({
          type: "resource_link",
          uri: part.uri,
          name: part.name,
          ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }),
        });
        break;
      default:
        break;
    }
  }
  return {
    server,
    tool,
    isError: result.isError === true,
    text: texts.join("\n"),
    ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
    attachments,
  };
}

/**
 * `result` made safe to show: control characters removed, secrets redacted (text, structured content,
 * attachment names and URIs), the text cut to `maxChars`, and structured content left out when its JSON is
 * longer than `maxChars` or no longer parses after redaction (the text says so).
 */
export function limitMcpResult(
  result: McpToolResult,
  options: { redact: (text: string) => string; maxChars: number },
): McpToolResult {
  const { redact, maxChars } = options;
  // Cut before redacting (a huge answer is not scanned whole), with room for a secret across the cut.
  const clean = (text: string, max: number): string => redact(stripControls(text.slice(0, max + 1024)));
  const notes: string[] = [];
  let structuredContent = result.structuredContent;
  if (structuredContent !== undefined) {
    const json = JSON.stringify(structuredContent);
    if (json.length > maxChars) {
      structuredContent = undefined;
      notes.push(`[structured content of ${json.length.toLocaleString("en-US")} characters left out]`);
    } else {
      const redacted = redact(json);
      if (redacted !== json) {
        try {
          structuredContent = JSON.parse(redacted) as Record<string, unknown>;
        } catch {
          structuredContent = undefined;
          notes.push("[structured content left out: it held a secret]");
        }
      }
    }
  }
  const text = capText(clean(result.text, maxChars), maxChars, "output", result.text.length);
  return {
    server: result.server,
    tool: stripControls(result.tool).slice(0, 100),
    isError: result.isError,
    text: notes.length === 0 ? text : [text, ...notes].filter((t) => t !== "").join("\n"),
    ...(structuredContent === undefined ? {} : { structuredContent }),
    attachments: result.attachments.slice(0, 100).map((a) => ({
      ...a,
      ...(a.uri === undefined ? {} : { uri: clean(a.uri, 500).slice(0, 500) }),
      ...(a.name === undefined ? {} : { name: clean(a.name, 200).slice(0, 200) }),
      ...(a.mimeType === undefined ? {} : { mimeType: stripControls(a.mimeType).slice(0, 100) }),
    })),
  };
}

/** A result for a call that did not reach the server or failed at the protocol level. */
export function failedCall(server: string, tool: string, message: string): McpToolResult {
  return { server, tool, isError: true, text: message, attachments: [] };
}

/** The text the model reads. */
export function mcpResultText(result: McpToolResult): string {
  const lines: string[] = [];
  if (result.text !== "") lines.push(result.text);
  else if (result.structuredContent !== undefined) lines.push(JSON.stringify(result.structuredContent));
  for (const a of result.attachments) lines.push(describeAttachment(a));
  const body = lines.length === 0 ? "(the tool returned no content)" : lines.join("\n");
  return result.isError ? `Error from MCP server '${result.server}', tool '${result.tool}': ${body}` : body;
}

function describeAttachment(a: McpAttachment): string {
  const parts = [a.type === "resource_link" ? "link" : a.type];
  if (a.name !== undefined) parts.push(a.name);
  if (a.uri !== undefined) parts.push(a.uri);
  if (a.mimeType !== undefined) parts.push(a.mimeType);
  if (a.bytes !== undefined) parts.push(formatBytes(a.bytes));
  return `[${parts.join(", ")}${a.type === "image" || a.type === "audio" ? "; not shown" : ""}]`;
}

function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}
