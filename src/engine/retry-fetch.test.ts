import { describe, expect, it } from "vitest";
import { createRetryFetch, parseRetryAfter } from "./retry-fetch.js";

function scripted(responses: Array<() => Response>): { fetch: typeof fetch; calls: number } {
  const state = {
    calls: 0,
    fetch: (async () => responses[Math.min(state.calls++, responses.length - 1)]!()) as typeof fetch,
  };
  return state;
}

describe("createRetryFetch", () => {
  it("retries a 429 after the Retry-After seconds and returns the success", async () => {
    const server = scripted([
      () => new Response("slow down", { status: 429, headers: { "retry-after": "2" } }),
      () => new Response("ok", { status: 200 }),
    ]);
    const waits: number[] = [];
    const f = createRetryFetch({ fetch: server.fetch, sleep: async (ms) => void waits.push(ms) });
    const response = await f("http://x");
    expect(await response.text()).toBe("ok");
    expect(waits).toEqual([2000]);
  });

  it("backs off exponentially on 5xx and gives the last failure back after maxAttempts", async () => {
    const server = scripted([() => new Response("down", { status: 503 })]);
    const waits: number[] = [];
    const f = createRetryFetch({
      fetch: server.fetch,
      maxAttempts: 4,
      baseDelayMs: 100,
      sleep: async (ms) => void waits.push(ms),
    });
    const response = await f("http://x");
    expect(response.status).toBe(503);
    expect(server.calls).toBe(4);
    expect(waits).toEqual([100, 200, 400]);
  });

  it("does not retry client errors", async () => {
    const server = scripted([() => new Response("bad key", { status: 401 })]);
    const f = createRetryFetch({ fetch: server.fetch, sleep: async () => {} });
    expect((await f("http://x")).status).toBe(401);
    expect(server.calls).toBe(1);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
