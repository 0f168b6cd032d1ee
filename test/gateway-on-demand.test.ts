/**
 * The CLI bundle's stand-in for `@ai-sdk/gateway` (scripts/gateway-on-demand.mjs): the same answers as the
 * package for every error check `ai` makes, the real provider on first use, and no gateway code in the
 * bundle `skillrt ask` loads.
 */
import fs from "node:fs";
import path from "node:path";
import * as real from "@ai-sdk/gateway";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain build-time module without types
import * as stub from "../scripts/gateway-on-demand.mjs";

const root = path.join(import.meta.dirname, "..");

describe("gateway on demand", () => {
  it("classifies errors as the package's own classes do", () => {
    const errors = [
      new real.GatewayInternalServerError({ message: "x" }),
      new real.GatewayAuthenticationError({}),
      new real.GatewayRateLimitError({}),
      new Error("plain"),
      { name: "GatewayError" },
      null,
      "text",
    ];
    for (const error of errors) {
      expect(stub.GatewayError.isInstance(error)).toBe(real.GatewayError.isInstance(error));
      expect(stub.GatewayAuthenticationError.isInstance(error)).toBe(
        real.GatewayAuthenticationError.isInstance(error),
      );
    }
  });

  it("hands string model ids to the real gateway provider", () => {
    const model = stub.gateway("openai/gpt-5");
    expect(model.provider).toBe(real.gateway("openai/gpt-5").provider);
    expect(model.modelId).toBe("openai/gpt-5");
    expect(stub.gateway.languageModel("anthropic/claude").modelId).toBe("anthropic/claude");
    expect(stub.createGateway({ apiKey: "k" })("a/b").modelId).toBe("a/b");
  });

  it("keeps the gateway out of the CLI's bundle (built by npm run build), which holds the AI SDK", () => {
    const dir = path.join(root, "dist/bundle");
    const files = fs.readdirSync(dir).filter((name) => name.endsWith(".js"));
    const sources = files.map((name) => fs.readFileSync(path.join(dir, name), "utf8"));
    expect(sources.some((source) => source.includes("function generateText("))).toBe(true);
    for (const source of sources) expect(source).not.toContain("function createGatewayErrorFromResponse(");
  });
});
