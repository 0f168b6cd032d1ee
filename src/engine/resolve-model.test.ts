import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/model-config.js";
import { resolveModel } from "./resolve-model.js";

const config = (provider: ModelConfig["provider"]): ModelConfig => ({
  provider,
  modelId: "m-1",
  baseURL: "http://127.0.0.1:9/v1",
  apiKey: "k",
  contextWindow: 128_000,
  maxAttempts: 1,
  configured: true,
});

describe("resolveModel", () => {
  // The provider packages are imported on the first call; until then the model must already report what
  // the package's model reports, since labels and saved sessions read it.
  it.each([
    ["anthropic", () => createAnthropic({ apiKey: "k" })("m-1")],
    ["openai", () => createOpenAI({ apiKey: "k" })("m-1")],
    [
      "openai-compatible",
      () => createOpenAICompatible({ name: "openai-compatible", baseURL: "http://x" }).chatModel("m-1"),
    ],
  ] as const)("%s: names the provider and model as the package's model does", async (provider, real) => {
    const model = resolveModel(config(provider)) as LanguageModelV4;
    const expected = real() as LanguageModelV4;
    expect(model.specificationVersion).toBe(expected.specificationVersion);
    expect(model.provider).toBe(expected.provider);
    expect(model.modelId).toBe(expected.modelId);
    expect(await model.supportedUrls).toEqual(await expected.supportedUrls);
  });

  it("imports the provider on the first call and reports its failure there", async () => {
    const model = resolveModel(config("openai-compatible")) as LanguageModelV4;
    await expect(
      model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
    ).rejects.toThrow(/127\.0\.0\.1:9|ECONNREFUSED|fetch failed|Cannot connect/);
  });
});
