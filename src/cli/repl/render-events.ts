/** Renders engine events for people (streamed text, compact tool lines) or as JSON lines. */
import type { EngineEvent } from "../../engine/engine-event.js";
import { type McpToolResult, mcpResultText } from "../../tools/mcp-client/mcp-tool-result.js";
import { isToolRefusal } from "../../tools/tool-approval.js";
import type { Style } from "../create-style.js";
import type { Spinner } from "./create-spinner.js";

/** Consumes the events of one run. */
export interface EventRenderer {
  handle(event: EngineEvent): void;
  /** Ends the run's output (final newline, spinner off). */
  finish(): void;
}

/** Human-readable size: `512 B`, `1.2 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The most telling argument of a tool call, for a one-line display (first string field, shortened). */
export function summarizeInput(input: unknown): string {
  if (typeof input === "string") return input.slice(0, 60);
  if (typeof input !== "object" || input === null) return "";
  const values = Object.values(input).filter((v): v is string => typeof v === "string");
  const shown = values.slice(0, 2).join(" ");
  return shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
}

/** A tool output that reports a failure without being an error result: an MCP `isError` result or a refused call. */
function failureText(output: unknown): string | undefined {
  if (isToolRefusal(output)) return output.message;
  if (typeof output === "object" && output !== null && (output as McpToolResult).isError === true) {
    const result = output as McpToolResult;
    if (typeof result.server === "string" && Array.isArray(result.attachments)) return mcpResultText(result);
  }
  return undefined;
}

function firstLine(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const line = (text ?? "").split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/**
 * Lines for tools offered (`+`) or withdrawn (`-`): one per reason, so open gating's fifty server tools are
 * one line (`+ 50 tools (tool gating is open): mcp__a__x, mcp__a__y, …`), and a single tool keeps its own
 * line (`+ tool mcp__a__x: granted by skill 'triage' (…)`).
 */
export function toolChangeLines(
  sign: "+" | "-",
  tools: ReadonlyArray<{ name: string; reason: string }>,
): string[] {
  const byReason = new Map<string, string[]>();
  for (const t of tools) byReason.set(t.reason, [...(byReason.get(t.reason) ?? []), t.name]);
  return [...byReason].map(([reason, names]) => {
    if (names.length === 1) return `${sign} tool ${names[0]}: ${reason}`;
    let list = names.join(", ");
    if (list.length > 100) list = `${list.slice(0, list.lastIndexOf(", ", 100))}, …`;
    return `${sign} ${names.length} tools (${reason}): ${list}`;
  });
}

/** The one line a subagent's event gets (its nested agents' events by their own tags), or none. */
function agentEventLine(event: EngineEvent): string | undefined {
  switch (event.type) {
    case "tool-call":
      return `→ ${event.toolName} ${summarizeInput(event.input)}`.trimEnd();
    case "tool-result":
      return event.isError ? `✗ ${event.toolName}: ${firstLine(event.output)}` : undefined;
    case "skill-load":
      return `+ loaded ${event.name}`;
    case "agent-start":
      return `⇢ agent ${event.agent}: ${firstLine(event.task)}${(event.narrowed ?? []).map((n) => ` (! ${n})`).join("")}`;
    case "agent-end":
      return `⇠ agent ${event.agent}: ${event.steps} steps, ${event.usage.totalTokens} tokens`;
    default:
      return undefined;
  }
}

/** What a progress report says: `3/10 copying files`, `3 copying files`, or the message alone. */
export function progressDetail(progress: { progress?: number; total?: number; message?: string }): string {
  const { progress: done, total, message } = progress;
  const amount = done === undefined ? "" : total === undefined ? `${done}` : `${done}/${total}`;
  return [amount, message ?? ""].filter((part) => part !== "").join(" ");
}

/** Options of {@link createHumanRenderer}. */
export interface HumanRendererOptions {
  /** Where the answer text goes. */
  text: NodeJS.WritableStream;
  /** Where tool and skill lines go (stderr for `ask`, so stdout carries only the answer). */
  info: NodeJS.WritableStream;
  style: Style;
  spinner: Spinner;
}

/**
 * Streams `text-delta`s, and prints one compact line per tool call (`→ skill_load pdf-tools`) and per
 * result (`✓ skill_load 1.2 KB` / `✗ skill_read: message`), plus skill loads by the user or the
 * selection pre-pass and evictions. The spinner runs while a step waits for its first output.
 */
export function createHumanRenderer(options: HumanRendererOptions): EventRenderer {
  const { style, spinner } = options;
  // Without a live spinner (a pipe, a log), progress is a line when it says something new, at most one a second per call.
  const progressShown = new Map<string, { text: string; at: number }>();
  let atLineStart = true;
  let wroteText = false;
  const sameStream = options.text === options.info;
  const line = (text: string): void => {
    spinner.stop();
    if (sameStream && !atLineStart) options.text.write("\n");
    atLineStart = true;
    options.info.write(`${text}\n`);
  };
  return {
    handle(event) {
      switch (event.type) {
        case "step-start":
          spinner.start();
          break;
        case "text-delta":
          if (event.text === "") break;
          spinner.stop();
          options.text.write(event.text);
          atLineStart = event.text.endsWith("\n");
          wroteText = true;
          break;
        case "tool-call":
          line(style.cyan(`→ ${event.toolName} ${summarizeInput(event.input)}`.trimEnd()));
          spinner.start(`running ${event.toolName}…`);
          break;
        case "tool-result": {
          const failure = event.isError ? event.output : failureText(event.output);
          if (failure !== undefined) line(style.red(`✗ ${event.toolName}: ${firstLine(failure)}`));
          else line(style.dim(`✓ ${event.toolName} ${formatBytes(event.bytes)}`));
          break;
        }
        case "tool-progress": {
          const detail = progressDetail(event);
          if (spinner.live) {
            spinner.update(`running ${event.toolName}…${detail === "" ? "" : ` ${detail}`}`);
            break;
          }
          const last = progressShown.get(event.toolCallId);
          if (
            detail === "" ||
            last?.text === detail ||
            (last !== undefined && event.elapsedMs - last.at < 1000)
          )
            break;
          progressShown.set(event.toolCallId, { text: detail, at: event.elapsedMs });
          line(style.dim(`… ${event.toolName}: ${detail}`));
          break;
        }
        case "tools-change":
          for (const text of toolChangeLines("+", event.offered)) line(style.dim(text));
          for (const text of toolChangeLines("-", event.withdrawn)) line(style.dim(text));
          break;
        case "tool-source-error":
          line(style.yellow(`! ${event.message}`));
          break;
        case "skill-load":
          if (event.by !== "model")
            line(style.green(`+ loaded ${event.name} (${event.tokens} tokens, by ${event.by})`));
          break;
        case "skill-unload":
          if (event.by === "user") line(style.dim(`- unloaded ${event.name}`));
          break;
        case "budget-evict":
          for (const name of event.evicted) {
            const why = `context at ${event.tokensBefore} tokens passed the threshold of ${event.threshold}; now ${event.tokensAfter}`;
            line(style.yellow(`! evicted ${name}: ${why}`));
          }
          break;
        case "history-compact":
          line(
            style.dim(
              `… compacted ${event.removedMessages} messages (${event.tokensBefore} → ${event.tokensAfter} tokens)`,
            ),
          );
          break;
        case "agent-start":
          line(style.cyan(`${"  ".repeat(event.depth - 1)}⇢ agent ${event.agent}: ${firstLine(event.task)}`));
          // A definition that asked for more than its parent has: said, with what it keeps instead.
          for (const note of event.narrowed ?? []) line(style.yellow(`${"  ".repeat(event.depth)}! ${note}`));
          spinner.start(`agent ${event.agent} working…`);
          break;
        case "agent-event": {
          // A child's work is shown collapsed: its tool calls and failures, indented; its text is its answer.
          const inner = agentEventLine(event.event);
          if (inner !== undefined) line(style.dim(`${"  ".repeat(event.depth)}${inner}`));
          break;
        }
        case "agent-end": {
          const how =
            event.error ??
            (event.aborted ? "aborted" : `${event.steps} steps, ${event.usage.totalTokens} tokens`);
          line(style.cyan(`${"  ".repeat(event.depth - 1)}⇠ agent ${event.agent}: ${how}`));
          break;
        }
        case "step-end":
          spinner.stop();
          break;
        case "error":
          spinner.stop();
          break;
        case "save-retry":
        case "files-not-kept": {
          // After the answer: on its own stream, the answer's line is left for finish() to end.
          const notice = style.yellow(`skillrt: ${event.message}`);
          if (sameStream) line(notice);
          else {
            spinner.stop();
            options.info.write(`${notice}\n`);
          }
          break;
        }
      }
    },
    finish() {
      spinner.stop();
      if (wroteText && !atLineStart) options.text.write("\n");
      atLineStart = true;
      wroteText = false;
    },
  };
}

/** Writes every event as one JSON line (`--json`). */
export function createJsonRenderer(stream: NodeJS.WritableStream): EventRenderer {
  return {
    handle(event) {
      stream.write(`${JSON.stringify(event)}\n`);
    },
    finish() {},
  };
}
