import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SKILLRT_VERSION } from "./version.js";

describe("SKILLRT_VERSION", () => {
  it("matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(SKILLRT_VERSION).toBe(pkg.version);
  });
});
