import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "./is-loopback-host.js";

describe("isLoopbackHost", () => {
  it("accepts only addresses reachable from this machine alone", () => {
    for (const host of [
      "127.0.0.1",
      "127.1.2.3",
      "localhost",
      "LOCALHOST",
      "::1",
      "[::1]",
      "::ffff:127.0.0.1",
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      "0.0.0.0",
      "::",
      "192.168.1.4",
      "10.0.0.1",
      "example.com",
      "localhost.example.com",
      "128.0.0.1",
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});
