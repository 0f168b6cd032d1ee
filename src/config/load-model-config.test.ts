import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadModelConfig } from "./load-model-config.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-model-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadModelConfig", () => {
  it("defaults to a local Ollama and says nothing was configured", async () => {
    const config = await loadModelConfig({ env: {}, cwd: dir, home: dir });
    expect(config).toMatchObject({
      provider: "openai-compatible",
      baseURL: "http://localhost:11434/v1",
      configured: false,
      contextWindow: 128_000,
      contextWindowConfigured: false,
      maxAttempts: 4,
    });
  });

  it("says where the context window came from, and reads a config already loaded", async () => {
    const fromEnv = await loadModelConfig({ env: { SKILLRT_CONTEXT_WINDOW: "64000" }, cwd: dir, home: dir });
    expect(fromEnv).toMatchObject({ contextWindow: 64_000, contextWindowConfigured: true });
    const given = await loadModelConfig({
      env: {},
      cwd: path.join(dir, "elsewhere"),
      config: { model: { contextWindow: 200_000, model: "m" }, session: {}, exec: {}, sources: [] },
    });
    expect(given).toMatchObject({ contextWindow: 200_000, contextWindowConfigured: true, modelId: "m" });
  });

  it("infers the provider from the environment", async () => {
    const compat = await loadModelConfig({
      env: {
        OPENAI_BASE_URL: "https://open.bigmodel.cn/api/paas/v4",
        OPENAI_API_KEY: "k",
        AGENT_MODEL: "glm-4.6",
      },
      cwd: dir,
    });
    expect(compat).toMatchObject({
      provider: "openai-compatible",
      modelId: "glm-4.6",
      apiKey: "k",
      configured: true,
    });
    const anthropic = await loadModelConfig({ env: { ANTHROPIC_API_KEY: "a" }, cwd: dir });
    expect(anthropic).toMatchObject({ provider: "anthropic", apiKey: "a", baseURL: undefined });
    const openai = await loadModelConfig({ env: { OPENAI_API_KEY: "o" }, cwd: dir });
    expect(openai.provider).toBe("openai");
  });

  it("layers flags over env over the project file over the user file", async () => {
    await mkdir(path.join(dir, ".skillrt"));
    await writeFile(
      path.join(dir, ".skillrt", "config.json"),
      JSON.stringify({ model: { model: "user-model", contextWindow: 32000 } }),
    );
    await writeFile(
      path.join(dir, "skillrt.config.json"),
      JSON.stringify({ model: { model: "project-model" } }),
    );
    const fromFiles = await loadModelConfig({ env: {}, cwd: dir, home: dir });
    expect(fromFiles).toMatchObject({ modelId: "project-model", contextWindow: 32000, configured: true });
    const fromEnv = await loadModelConfig({ env: { AGENT_MODEL: "env-model" }, cwd: dir, home: dir });
    expect(fromEnv.modelId).toBe("env-model");
    const fromFlags = await loadModelConfig({
      env: { AGENT_MODEL: "env-model" },
      cwd: dir,
      home: dir,
      flags: { model: "flag-model", contextWindow: 8000, provider: "anthropic" },
    });
    expect(fromFlags).toMatchObject({ modelId: "flag-model", contextWindow: 8000, provider: "anthropic" });
  });

  it("reads model.callOptions from the file; a value of the wrong type is refused with its path", async () => {
    await writeFile(
      path.join(dir, "skillrt.config.json"),
      JSON.stringify({ model: { callOptions: { temperature: 0.2, stopSequences: ["END"] } } }),
    );
    const config = await loadModelConfig({ env: {}, cwd: dir, home: dir });
    expect(config.callOptions).toEqual({ temperature: 0.2, stopSequences: ["END"] });
    await writeFile(
      path.join(dir, "skillrt.config.json"),
      JSON.stringify({ model: { callOptions: { temperature: "hot" } } }),
    );
    await expect(loadModelConfig({ env: {}, cwd: dir, home: dir })).rejects.toThrow(
      /callOptions.temperature/,
    );
  });

  it("reads the model deadlines from the file in seconds; the flags (ms) win; unset means the engine's defaults", async () => {
    const none = await loadModelConfig({ env: {}, cwd: dir, home: dir });
    expect(none.firstByteTimeoutMs).toBeUndefined();
    expect(none.idleTimeoutMs).toBeUndefined();
    await writeFile(
      path.join(dir, "skillrt.config.json"),
      JSON.stringify({ model: { firstByteTimeoutSeconds: 600, idleTimeoutSeconds: 1.5 } }),
    );
    const file = await loadModelConfig({ env: {}, cwd: dir, home: dir });
    expect([file.firstByteTimeoutMs, file.idleTimeoutMs]).toEqual([600_000, 1_500]);
    const flags = await loadModelConfig({
      env: {},
      cwd: dir,
      home: dir,
      flags: { firstByteTimeoutMs: 5_000 },
    });
    expect([flags.firstByteTimeoutMs, flags.idleTimeoutMs]).toEqual([5_000, 1_500]);
    await writeFile(
      path.join(dir, "skillrt.config.json"),
      JSON.stringify({ model: { idleTimeoutSeconds: 0 } }),
    );
    await expect(loadModelConfig({ env: {}, cwd: dir, home: dir })).rejects.toThrow(/idleTimeoutSeconds/);
  });

  it("rejects a broken config file naming the file and the key", async () => {
    await writeFile(path.join(dir, "skillrt.config.json"), JSON.stringify({ model: { provider: "nope" } }));
    await expect(loadModelConfig({ env: {}, cwd: dir })).rejects.toThrow(
      /skillrt\.config\.json.*model\.provider/,
    );
    await expect(
      loadModelConfig({ env: { SKILLRT_PROVIDER: "x" }, cwd: path.join(dir, "none") }),
    ).rejects.toThrow(/unknown provider 'x'/);
  });
});

describe("key-only vendors (the seed's ZAI_API_KEY and MOONSHOT_API_KEY)", () => {
  it("ZAI_API_KEY with AGENT_MODEL=glm-5 reaches Z.ai's endpoint with no base URL set", async () => {
    const config = await loadModelConfig({ env: { ZAI_API_KEY: "zk", AGENT_MODEL: "glm-5" }, cwd: dir });
    expect(config).toMatchObject({
      provider: "openai-compatible",
      modelId: "glm-5",
      baseURL: "https://api.z.ai/api/paas/v4",
      apiKey: "zk",
      configured: true,
    });
    // A GLM model picks Z.ai even when an OpenAI key is in the environment too.
    const both = await loadModelConfig({
      env: { ZAI_API_KEY: "zk", OPENAI_API_KEY: "o", AGENT_MODEL: "glm-5" },
      cwd: dir,
    });
    expect(both).toMatchObject({ baseURL: "https://api.z.ai/api/paas/v4", apiKey: "zk" });
    const openai = await loadModelConfig({
      env: { ZAI_API_KEY: "zk", OPENAI_API_KEY: "o", AGENT_MODEL: "gpt-4o" },
      cwd: dir,
    });
    expect(openai).toMatchObject({ provider: "openai", apiKey: "o" });
  });

  it("MOONSHOT_API_KEY reaches Kimi; a key alone picks the vendor's default model; *_BASE_URL overrides", async () => {
    const kimi = await loadModelConfig({ env: { MOONSHOT_API_KEY: "mk" }, cwd: dir });
    expect(kimi).toMatchObject({
      provider: "openai-compatible",
      baseURL: "https://api.moonshot.ai/v1",
      apiKey: "mk",
      modelId: "kimi-k2-0905-preview",
    });
    const overridden = await loadModelConfig({
      env: { ZAI_API_KEY: "zk", ZAI_BASE_URL: "http://127.0.0.1:9/v4" },
      cwd: dir,
    });
    expect(overridden).toMatchObject({ baseURL: "http://127.0.0.1:9/v4", modelId: "glm-4.6", apiKey: "zk" });
    // OPENAI_BASE_URL pointing at Z.ai uses the Z.ai key when no OpenAI key is set.
    const byURL = await loadModelConfig({
      env: { OPENAI_BASE_URL: "https://open.bigmodel.cn/api/paas/v4", ZAI_API_KEY: "zk" },
      cwd: dir,
    });
    expect(byURL).toMatchObject({ provider: "openai-compatible", apiKey: "zk" });
  });
});
