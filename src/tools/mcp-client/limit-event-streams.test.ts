/**
 * The event-stream filter on real `Response` streams, the chunks cut where a network would cut them: what
 * a server sends on its own passes the bucket, responses always pass, dropped events keep their ids,
 * `list_changed` is coalesced, and one event over the cap ends the stream.
 */
import { describe, expect, it } from "vitest";
import { limitEventStreams, MAX_EVENT_CHARS, MAX_JSON_BODY_BYTES } from "./limit-event-streams.js";
import { createMessageBucket } from "./limit-server-messages.js";

const event = (id: string, message: object, end = "\n\n") =>
  `id: ${id}\nevent: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...message })}${end}`;
const note = (i: number) => ({
  method: "notifications/message",
  params: { level: "info", data: `line ${i}` },
});

/** `text` as a response body in chunks of `size` bytes, through the filter; the filtered body as text. */
async function filtered(text: string, bucket = createMessageBucket(), size = 7): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
      controller.close();
    },
  });
  const fetchFn = async () => new Response(body, { headers: { "content-type": "text/event-stream" } });
  const response = await limitEventStreams(bucket, fetchFn)("http://x/mcp");
  return response.text();
}

describe("limitEventStreams", () => {
  it("passes a burst of notifications, drops the rest keeping their ids, and always passes the response", async () => {
    let at = 0;
    let warned = 0;
    const bucket = createMessageBucket({
      burst: 3,
      perSecond: 1,
      now: () => at,
      onFirstDrop: () => warned++,
    });
    const text = `${Array.from({ length: 10 }, (_, i) => event(`e${i}`, note(i), i % 2 === 0 ? "\r\n\r\n" : "\n\n")).join("")}${event("e10", { id: 1, result: { content: [] } })}`;
    const out = await filtered(text, bucket);
    expect(out.match(/notifications\/message/g)).toHaveLength(3);
    expect(out).toContain('"line 2"');
    expect(out).not.toContain('"line 3"');
    for (let i = 3; i < 10; i++) expect(out).toContain(`id: e${i}\n\n`);
    expect(out).toContain('"result":{"content":[]}');
    expect(bucket.dropped()).toBe(7);
    expect(warned).toBe(1);
    at = 2_000; // two seconds later the bucket has two tokens again
    expect(bucket.take("notifications/message")).toBe(true);
  });

  it("coalesces list_changed: one per method per second, without using the bucket's tokens", async () => {
    const bucket = createMessageBucket({ burst: 1, perSecond: 0, now: () => 0 });
    const changed = (i: number) => event(`c${i}`, { method: "notifications/tools/list_changed" });
    const out = await filtered(
      `${Array.from({ length: 50 }, (_, i) => changed(i)).join("")}${event("n", note(0))}`,
      bucket,
    );
    expect(out.match(/list_changed/g)).toHaveLength(1);
    expect(out).toContain('"line 0"');
  });

  it("ends the stream on one event or JSON body over the cap, and leaves other responses alone", async () => {
    const huge = `data: ${"x".repeat(MAX_EVENT_CHARS + 10)}`;
    await expect(filtered(huge, createMessageBucket(), 1 << 20)).rejects.toThrow(
      `a server-sent event is over ${MAX_EVENT_CHARS} characters`,
    );
    const limited = limitEventStreams(
      createMessageBucket(),
      async () =>
        new Response(
          `{"jsonrpc":"2.0","id":1,"result":{"skills":[${'"x",'.repeat(MAX_JSON_BODY_BYTES / 4)}"x"]}}`,
          {
            headers: { "content-type": "application/json" },
          },
        ),
    );
    await expect((await limited("http://x")).json()).rejects.toThrow(
      `a JSON response is over ${MAX_JSON_BODY_BYTES} bytes`,
    );
    const small = limitEventStreams(
      createMessageBucket(),
      async () => new Response('{"ok":1}', { headers: { "content-type": "application/json" } }),
    );
    expect(await (await small("http://x")).json()).toEqual({ ok: 1 });
    const text = new Response("plain", { headers: { "content-type": "text/plain" } });
    expect(await limitEventStreams(createMessageBucket(), async () => text)("http://x")).toBe(text);
  });
});
