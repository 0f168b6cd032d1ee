/**
 * An MCP stdio transport (newline-delimited JSON-RPC) that survives bad input. The SDK's own transport
 * closes the connection on one message over its 10 MiB buffer — the server then ends without a word — and
 * drops malformed lines silently. This one skips an oversized message without buffering it, answers an
 * unparsable line with a JSON-RPC parse error (without an id, as none could be read), reports both through `onerror` (the CLI logs
 * them to stderr) and keeps serving.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** Default largest message read: 10 MiB (the SDK's limit). */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Options of {@link createStdioTransport}. */
export interface StdioTransportOptions {
  /** Largest message (one line) read; a longer one is skipped and reported. Default 10 MiB. */
  maxMessageBytes?: number;
}

const NEWLINE = 0x0a;

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A transport over `input` / `output` (e.g. `process.stdin` / `process.stdout`). */
export function createStdioTransport(
  input: Readable,
  output: Writable,
  options: StdioTransportOptions = {},
): Transport {
  const max = options.maxMessageBytes ?? MAX_MCP_MESSAGE_BYTES;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Bytes of the oversized message being skipped, or -1 when not skipping. */
  let skipped = -1;
  let started = false;
  let closed = false;

  const transport: Transport = {
    async start() {
      if (started) throw new Error("createStdioTransport: already started");
      started = true;
      input.on("data", onData);
      input.on("error", onStreamError);
    },
    send(message) {
      return new Promise<void>((resolve, reject) => {
        if (closed) {
          reject(new Error("the MCP connection is closed"));
          return;
        }
        const ok = output.write(`${JSON.stringify(message)}\n`, (error) => {
          if (error) reject(error);
        });
        if (ok) resolve();
        else output.once("drain", resolve);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      input.off("data", onData);
      input.off("error", onStreamError);
      if (input.listenerCount("data") === 0) input.pause();
      pending = [];
      pendingBytes = 0;
      transport.onclose?.();
    },
  };

  function report(message: string): void {
    transport.onerror?.(new Error(message));
  }

  function onStreamError(error: Error): void {
    transport.onerror?.(error);
  }

  function reply(message: JSONRPCMessage): void {
    transport.send(message).catch((error: unknown) => {
      transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  }

  function onLine(line: Buffer): void {
    const text = line.toString("utf8").replace(/\r$/, "");
    if (text.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      report(`skipped a malformed message (${size(line.length)}): not JSON: ${detail}`);
      reply({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      report(`skipped a malformed message (${size(line.length)}): not a JSON-RPC 2.0 message`);
      const id = (json as { id?: unknown } | null)?.id;
      if (typeof id === "string" || typeof id === "number") {
        reply({ jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request" } });
      }
      return;
    }
    transport.onmessage?.(parsed.data);
  }

  function onData(chunk: Buffer | string): void {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    while (data.length > 0 && !closed) {
      const end = data.indexOf(NEWLINE);
      const piece = end === -1 ? data : data.subarray(0, end);
      data = end === -1 ? Buffer.alloc(0) : data.subarray(end + 1);
      if (skipped >= 0) {
        skipped += piece.length;
      } else if (pendingBytes + piece.length > max) {
        skipped = pendingBytes + piece.length;
        pending = [];
        pendingBytes = 0;
      } else {
        pending.push(piece);
        pendingBytes += piece.length;
      }
      if (end === -1) return;
      if (skipped >= 0) {
        report(
          `skipped a message of ${size(skipped)}, over the ${size(max)} limit; a client that waits for its answer will time out`,
        );
        reply({ jsonrpc: "2.0", error: { code: -32600, message: `Message too large (limit ${max} bytes)` } });
        skipped = -1;
        continue;
      }
      const line = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      onLine(line);
    }
  }

  return transport;
}
