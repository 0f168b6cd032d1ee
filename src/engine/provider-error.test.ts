import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { toProviderError } from "./provider-error.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A loopback HTTP server answering every request with `handle`; its base URL. */
async function serve(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const listening = createServer(handle);
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/v1`;
}

/** What a real AI SDK call to `baseURL` throws (no retries). */
async function failureOf(baseURL: string): Promise<unknown> {
  const model = createOpenAICompatible({ name: "test", baseURL, apiKey: "sk-test" })("m");
  try {
    await generateText({ model, prompt: "hi", maxRetries: 0 });
  } catch (error) {
    return error;
  }
  throw new Error("the call did not fail");
}

describe("toProviderError names the cause", () => {
  it("of a connection the provider dropped mid-answer (not just 'fetch failed')", async () => {
    const baseURL = await serve((req) => req.socket.destroy());
    const error = toProviderError(await failureOf(baseURL), `model 'm' at ${baseURL}`);
    expect(error.message).toMatch(/answered with network error (UND_ERR_SOCKET|ECONNRESET)/);
    expect(error.message).toContain("other side closed");
  });

  it("of an HTTP error: the status and the provider's own message, not its raw JSON", async () => {
    const baseURL = await serve((_req, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "this model does not support tools", type: "invalid" } }));
    });
    const error = toProviderError(await failureOf(baseURL), `model 'm' at ${baseURL}`);
    expect(error.status).toBe(400);
    expect(error.message).toContain("answered with HTTP 400 (this model does not support tools)");
  });

  it("of a stream's error part, a plain object", () => {
    const error = toProviderError(
      { type: "error", error: { message: "upstream overloaded", code: "overloaded" } },
      "model 'm'",
    );
    expect(error.message).toContain("(upstream overloaded)");
  });
});
