import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createDeadlineFetch } from "./deadline-fetch.js";
import { ModelTimeoutError } from "./model-timeout-error.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createDeadlineFetch", () => {
  it("fails at the first-byte deadline when the server accepts the request and never answers", async () => {
    const url = await serve(() => {});
    const f = createDeadlineFetch({ firstByteTimeoutMs: 200, idleTimeoutMs: 5_000 });
    const start = Date.now();
    const error = await f(url).catch((e: unknown) => e);
    const elapsed = Date.now() - start;
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect((error as ModelTimeoutError).deadline).toBe("first-byte");
    expect((error as ModelTimeoutError).message).toBe("sent nothing for 0.2 s (the first-byte deadline)");
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2_000);
  });

  it("counts headers without a body as no first byte yet", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
    });
    const f = createDeadlineFetch({ firstByteTimeoutMs: 300, idleTimeoutMs: 5_000 });
    const response = await f(url);
    const error = await response.text().catch((e: unknown) => e);
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect((error as ModelTimeoutError).deadline).toBe("first-byte");
  });

  it("fails at the idle deadline when a stream stalls after a chunk, and closes the connection", async () => {
    let closed = false;
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      res.on("close", () => {
        closed = true;
      });
    });
    const f = createDeadlineFetch({ firstByteTimeoutMs: 5_000, idleTimeoutMs: 200 });
    const response = await f(url);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    const error = await reader.read().catch((e: unknown) => e);
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect((error as ModelTimeoutError).deadline).toBe("idle");
    await sleep(100);
    expect(closed).toBe(true);
  });

  it("lets a slow but steady stream finish, and does not count time the reader spends between reads", async () => {
    const url = await serve(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 6; i++) {
        res.write(`${i}`);
        await sleep(80);
      }
      res.end();
    });
    const f = createDeadlineFetch({ firstByteTimeoutMs: 1_000, idleTimeoutMs: 250 });
    const response = await f(url);
    const reader = response.body!.getReader();
    let text = "";
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
      await sleep(300); // longer than the idle deadline, on the reader's side
    }
    expect(text).toBe("012345");
  });

  it("keeps the caller's abort: an aborted request fails with the caller's reason, not a deadline", async () => {
    const url = await serve(() => {});
    const f = createDeadlineFetch({ firstByteTimeoutMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    const error = await f(url, { signal: controller.signal }).catch((e: unknown) => e);
    expect(ModelTimeoutError.isInstance(error)).toBe(false);
    expect((error as Error).message).toBe("user cancelled");
  });
});
