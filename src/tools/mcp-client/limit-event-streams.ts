/**
 * The HTTP half of the limit on what an MCP server sends on its own. Over Streamable HTTP the SDK's client
 * runs every server-sent event through a text decoder stream, an event-source parser stream and its
 * message schema before the transport's `onmessage` (where {@link limitServerMessages} drops the excess)
 * sees it; 100,000 notifications on one stream took the client from 110 to 284 MB peak RSS that way. This
 * fetch wrapper filters `text/event-stream` bodies first: an event carrying a message with a `method`
 * (a notification or a request) passes only while the bucket has a token, so the SDK's pipeline sees a
 * bounded number; responses always pass, and one event larger than the cap ends the stream with an error.
 * A JSON response body (a server may answer a request with one, or with a batch) has the same cap.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MessageBucket } from "./limit-server-messages.js";

/** Largest single server-sent event, in characters (the SDK's stdio transport caps a message at 10 MiB). */
export const MAX_EVENT_CHARS = 10 * 1024 * 1024;
/** Largest JSON response body, in bytes: the same 10 MiB (one page listing a million skills is refused). */
export const MAX_JSON_BODY_BYTES = 10 * 1024 * 1024;

/**
 * `fetchFn` with its event-stream responses filtered through `bucket`, and its JSON response bodies cut
 * off (an error) past {@link MAX_JSON_BODY_BYTES}; other responses are untouched.
 */
export function limitEventStreams(bucket: MessageBucket, fetchFn: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await fetchFn(url, init);
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || response.body === null) return response;
    const sse = /^\s*text\/event-stream/i.test(type);
    if (!sse && !/^\s*application\/json/i.test(type)) return response;
    return new Response(response.body.pipeThrough(sse ? eventFilter(bucket) : byteCap(MAX_JSON_BODY_BYTES)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Passes bytes through until more than `max` went by, then errors the stream. */
function byteCap(max: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) controller.error(new Error(`a JSON response is over ${max} bytes; it was not read`));
      else controller.enqueue(chunk);
    },
  });
}

/** An event ends at a blank line (SSE allows CRLF, LF or CR line ends). */
const EVENT_END = /\r\n\r\n|\n\n|\r\r/g;

function eventFilter(bucket: MessageBucket): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  // Where the search for an event's end resumes: a large event arriving in many chunks is scanned once.
  let scanned = 0;
  const pass = (event: string, controller: TransformStreamDefaultController<Uint8Array>): void => {
    const method = serverMethod(event);
    if (method === undefined || bucket.take(method)) {
      controller.enqueue(encoder.encode(`${event}\n\n`));
      return;
    }
    // Dropped: its id (when it has one) still passes, so a resumed stream does not start before it.
    const id = /^id:(.*)$/m.exec(event);
    if (id !== null) controller.enqueue(encoder.encode(`id:${id[1]}\n\n`));
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      let start = 0;
      EVENT_END.lastIndex = Math.max(0, scanned - 3);
      for (let match = EVENT_END.exec(pending); match !== null; match = EVENT_END.exec(pending)) {
        pass(pending.slice(start, match.index), controller);
        start = match.index + match[0].length;
      }
      pending = pending.slice(start);
      scanned = pending.length;
      if (pending.length > MAX_EVENT_CHARS) {
        pending = "";
        scanned = 0;
        controller.error(
          new Error(`a server-sent event is over ${MAX_EVENT_CHARS} characters; the stream was closed`),
        );
      }
    },
    flush(controller) {
      pending += decoder.decode();
      if (pending !== "") controller.enqueue(encoder.encode(pending));
    },
  });
}

/**
 * The method of `event` when it is a `message` event whose data is one JSON-RPC message with a `method`
 * (what a server sends on its own). Undefined for anything else — a response, a batch, a comment, data
 * that is not JSON: it passes, and the SDK and {@link limitServerMessages} deal with it.
 */
function serverMethod(event: string): string | undefined {
  let data = "";
  let kind = "message";
  for (const line of event.split(/\r\n|\n|\r/)) {
    if (line.startsWith("data:"))
      data += (data === "" ? "" : "\n") + line.slice(line.startsWith("data: ") ? 6 : 5);
    else if (line.startsWith("event:")) kind = line.slice(6).trim();
  }
  // A cheap test first: a message without the word is no notification or request.
  if (kind !== "message" || !data.includes('"method"')) return undefined;
  try {
    const message: unknown = JSON.parse(data);
    if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
    const method = (message as { method?: unknown }).method;
    return typeof method === "string" ? method : undefined;
  } catch {
    return undefined;
  }
}
