/**
 * Loopback HTTP servers speaking the OpenAI chat-completions and Anthropic messages wire formats
 * (streaming SSE and plain JSON), replaying scripted steps and recording every request: a scripted
 * provider for wire-level tests of a program (point `OPENAI_BASE_URL` or the Anthropic base URL at
 * `baseURL`). Shipped in `skillrt/test`; it listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted reply: an HTTP failure, or an assistant turn with text and/or tool calls. */
export type ScriptedReply =
  | { status: number; headers?: Record<string, string>; body?: string }
  | {
      text?: string;
      toolCalls?: Array<{ name: string; input: unknown }>;
      /** Hold the answer this long before sending anything (a slow model, or one that never answers). */
      delayMs?: number;
      /** Stream the text, then stall: keep the connection open without finishing (streaming requests only). */
      stall?: boolean;
      /**
       * Stream the text, then never stop: `" and more"` every 10 ms until the client goes away, ignoring
       * `max_tokens` (a runaway model behind a buggy endpoint; streaming requests only).
       */
      endless?: boolean;
    };

/** A request the server received (`Body`: the parsed JSON body's type, `unknown` unless you say). */
export interface RecordedRequest<Body = unknown> {
  /** `Date.now()` when it arrived. */
  at: number;
  path: string;
  headers: IncomingMessage["headers"];
  /** The parsed JSON body (the raw text when it is not JSON, undefined when empty). */
  body: Body;
}

/** A running loopback provider. */
export interface LoopbackProvider<Body = unknown> {
  /** Base URL to configure (`…/v1`). */
  baseURL: string;
  requests: RecordedRequest<Body>[];
  /** Replies still to be served (append to extend the script). */
  script: ScriptedReply[];
  close(): Promise<void>;
}

/** The wire format a loopback provider speaks. */
export type LoopbackFormat = "openai" | "anthropic";

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function splitText(text: string): string[] {
  return text.match(/[\s\S]{1,12}/g) ?? [];
}

/** Text the endless reply repeats, one piece per tick. */
const ENDLESS_PIECE = " and more";

/** Calls `send` with {@link ENDLESS_PIECE} every 10 ms until the client closes the connection. */
function streamForever(res: ServerResponse, send: (piece: string) => void): void {
  const timer = setInterval(() => {
    if (res.destroyed || res.writableEnded) clearInterval(timer);
    else send(ENDLESS_PIECE);
  }, 10);
  res.once("close", () => clearInterval(timer));
}

function openaiStream(
  res: ServerResponse,
  reply: {
    text?: string;
    toolCalls?: Array<{ name: string; input: unknown }>;
    stall?: boolean;
    endless?: boolean;
  },
  n: number,
): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const base = {
    id: `chatcmpl-${n}`,
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "loopback",
  };
  const send = (choice: object, extra: object = {}): void => {
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }], ...extra })}\n\n`);
  };
  send({ delta: { role: "assistant", content: "" }, finish_reason: null });
  for (const piece of splitText(reply.text ?? "")) send({ delta: { content: piece }, finish_reason: null });
  if (reply.endless === true) {
    streamForever(res, (piece) => send({ delta: { content: piece }, finish_reason: null }));
    return;
  }
  if (reply.stall === true) return;
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const args = typeof call.input === "string" ? call.input : JSON.stringify(call.input);
    send({
      delta: {
        tool_calls: [
          { index, id: `call_${n}_${index}`, type: "function", function: { name: call.name, arguments: "" } },
        ],
      },
      finish_reason: null,
    });
    for (const piece of splitText(args))
      send({ delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null });
  }
  send({ delta: {}, finish_reason: (reply.toolCalls ?? []).length > 0 ? "tool_calls" : "stop" });
  res.write(
    `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } })}\n\n`,
  );
  res.write("data: [DONE]\n\n");
  res.end();
}

function openaiJson(
  res: ServerResponse,
  reply: { text?: string; toolCalls?: Array<{ name: string; input: unknown }> },
  n: number,
): void {
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    id: `call_${n}_${index}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
    },
  }));
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: `chatcmpl-${n}`,
      object: "chat.completion",
      created: 1_700_000_000,
      model: "loopback",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: reply.text ?? "",
            ...(calls.length === 0 ? {} : { tool_calls: calls }),
          },
          finish_reason: calls.length === 0 ? "stop" : "tool_calls",
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    }),
  );
}

function anthropicStream(
  res: ServerResponse,
  reply: {
    text?: string;
    toolCalls?: Array<{ name: string; input: unknown }>;
    stall?: boolean;
    endless?: boolean;
  },
  n: number,
): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: object): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  };
  send("message_start", {
    message: {
      id: `msg_${n}`,
      type: "message",
      role: "assistant",
      model: "loopback",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 1 },
    },
  });
  let index = 0;
  if (reply.text !== undefined) {
    send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of splitText(reply.text))
      send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    if (reply.endless === true) {
      streamForever(res, (piece) =>
        send("content_block_delta", { index, delta: { type: "text_delta", text: piece } }),
      );
      return;
    }
    if (reply.stall === true) return;
    send("content_block_stop", { index });
    index++;
  }
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const args = typeof call.input === "string" ? call.input : JSON.stringify(call.input);
    send("content_block_start", {
      index,
      content_block: { type: "tool_use", id: `toolu_${n}_${i}`, name: call.name, input: {} },
    });
    for (const piece of splitText(args))
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    send("content_block_stop", { index });
    index++;
  }
  send("message_delta", {
    delta: { stop_reason: (reply.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  send("message_stop", {});
  res.end();
}

function anthropicJson(res: ServerResponse, reply: { text?: string }, n: number): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: `msg_${n}`,
      type: "message",
      role: "assistant",
      model: "loopback",
      content: [{ type: "text", text: reply.text ?? "" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 20 },
    }),
  );
}

/**
 * Starts a loopback provider on 127.0.0.1 (random port). Each POST consumes the next scripted reply; when
 * the script is exhausted the server answers "(script exhausted)" as plain text.
 */
export async function startLoopbackProvider<Body = unknown>(
  format: LoopbackFormat,
  script: ScriptedReply[],
): Promise<LoopbackProvider<Body>> {
  const requests: RecordedRequest<Body>[] = [];
  const state = { script: [...script] };
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    requests.push({ at: Date.now(), path: req.url ?? "", headers: req.headers, body: body as Body });
    const n = requests.length;
    const reply = state.script.shift() ?? { text: "(script exhausted)" };
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(
        reply.body ??
          JSON.stringify({ error: { message: `scripted ${reply.status}`, type: "server_error" } }),
      );
      return;
    }
    if ("delayMs" in reply && reply.delayMs !== undefined) {
      // Hold the answer (a slow model); stop early when the client goes away (an aborted step).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs);
        res.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (res.destroyed || res.writableEnded) return;
    }
    const streaming = typeof body === "object" && body !== null && "stream" in body && body.stream === true;
    if (format === "openai") (streaming ? openaiStream : openaiJson)(res, reply, n);
    else (streaming ? anthropicStream : anthropicJson)(res, reply, n);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get script() {
      return state.script;
    },
    set script(value) {
      state.script = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
