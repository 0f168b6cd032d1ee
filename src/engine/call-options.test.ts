/** AI SDK call options through `createSkillAgent` to the provider's request, over loopback providers. */
import { streamText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { defineSkill } from "../catalog/memory-source.js";
import { loadModelConfig } from "../config/load-model-config.js";
import { type LoopbackProvider, startLoopbackProvider } from "../testing/start-loopback-provider.js";
import { mergeCallOptions } from "./call-options.js";
import { createSkillAgent } from "./create-skill-agent.js";
import { createSkillToolkit } from "./create-skill-toolkit.js";
import { resolveModel } from "./resolve-model.js";

let server: LoopbackProvider<Record<string, unknown>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const catalog = () =>
  createCatalog({
    roots: [],
    memory: [
      defineSkill({
        name: "notes",
        description: "Keeps meeting notes tidy.",
        body: "Write notes as bullets.",
      }),
    ],
  });

async function anthropicModel(baseURL: string) {
  return resolveModel(
    await loadModelConfig({
      env: { ANTHROPIC_BASE_URL: baseURL, ANTHROPIC_API_KEY: "sk-ant-test" },
      cwd: "/nonexistent",
    }),
  );
}

describe("call options reach the provider", () => {
  it("agent options and a turn's own (merged over them) are in the Anthropic request's body and headers", async () => {
    server = await startLoopbackProvider("anthropic", [{ text: "one" }, { text: "two" }]);
    const agent = await createSkillAgent({
      model: await anthropicModel(server.baseURL),
      catalog: await catalog(),
      callOptions: {
        temperature: 0.2,
        maxOutputTokens: 321,
        stopSequences: ["END"],
        headers: { "x-team": "docs", "x-run": "agent" },
        providerOptions: { anthropic: { metadata: { userId: "user-7" } } },
      },
    });
    try {
      await agent.send("first");
      await agent.send("second", {
        callOptions: {
          temperature: 0.7,
          headers: { "x-run": "turn" },
          providerOptions: { anthropic: { disableParallelToolUse: true } },
        },
      });
    } finally {
      await agent.close();
    }
    const [first, second] = server.requests;
    expect(first?.body).toMatchObject({
      temperature: 0.2,
      max_tokens: 321,
      stop_sequences: ["END"],
      metadata: { user_id: "user-7" },
    });
    expect(first?.headers["x-team"]).toBe("docs");
    expect(first?.headers["x-run"]).toBe("agent");
    // The turn's temperature and header win; the agent's other options stay; provider options merge.
    expect(second?.body).toMatchObject({
      temperature: 0.7,
      max_tokens: 321,
      metadata: { user_id: "user-7" },
      tool_choice: { type: "auto", disable_parallel_tool_use: true },
    });
    expect(second?.headers["x-team"]).toBe("docs");
    expect(second?.headers["x-run"]).toBe("turn");
  });

  it("the configured model.callOptions reach the request, the agent's own merged over them", async () => {
    server = await startLoopbackProvider("anthropic", [{ text: "ok" }]);
    const config = await loadModelConfig({
      env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: "sk-ant-test" },
      cwd: "/nonexistent",
    });
    const agent = await createSkillAgent({
      model: resolveModel(config),
      modelConfig: { ...config, callOptions: { temperature: 0.1, headers: { "x-config": "yes" } } },
      catalog: await catalog(),
      callOptions: { maxOutputTokens: 99 },
    });
    try {
      await agent.send("hi");
    } finally {
      await agent.close();
    }
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0.1, max_tokens: 99 });
    expect(server.requests[0]?.headers["x-config"]).toBe("yes");
  });

  it("topP and seed reach an OpenAI-compatible request", async () => {
    server = await startLoopbackProvider("openai", [{ text: "ok" }]);
    const config = await loadModelConfig({
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-test" },
      cwd: "/nonexistent",
    });
    const agent = await createSkillAgent({
      model: resolveModel(config),
      catalog: await catalog(),
      callOptions: { topP: 0.9, seed: 42 },
    });
    try {
      await agent.send("hi");
    } finally {
      await agent.close();
    }
    expect(server.requests[0]?.body).toMatchObject({ top_p: 0.9, seed: 42 });
  });

  it("history placement marks the system prompt and the request for Anthropic's prompt cache; promptCache: false does not", async () => {
    server = await startLoopbackProvider("anthropic", [{ text: "cached" }, { text: "plain" }]);
    const model = await anthropicModel(server.baseURL);
    for (const promptCache of [true, false]) {
      const agent = await createSkillAgent({ model, catalog: await catalog(), promptCache });
      try {
        await agent.send("hello");
      } finally {
        await agent.close();
      }
    }
    const [cached, plain] = server.requests;
    const system = cached?.body.system as Array<{ text: string; cache_control?: unknown }>;
    // The catalog is in the system prompt, which ends at a cache breakpoint; the rest is cached automatically.
    expect(system.at(-1)?.text).toContain("notes");
    expect(system.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(cached?.body.cache_control).toEqual({ type: "ephemeral" });
    expect(JSON.stringify(plain?.body)).not.toContain("cache_control");
  });

  it("a turn's abortSignal cancels it like send's own", async () => {
    server = await startLoopbackProvider("anthropic", [{ text: "late", delayMs: 5_000 }]);
    const agent = await createSkillAgent({
      model: await anthropicModel(server.baseURL),
      catalog: await catalog(),
    });
    try {
      const result = await agent.send("slow", { callOptions: { abortSignal: AbortSignal.timeout(200) } });
      expect(result.aborted).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it("the toolkit's spread carries its callOptions into the developer's own streamText call", async () => {
    server = await startLoopbackProvider("anthropic", [{ text: "ok" }]);
    const toolkit = await createSkillToolkit({
      catalog: await catalog(),
      executor: false,
      callOptions: { temperature: 0.4, headers: { "x-app": "mine" }, maxOutputTokens: 77 },
    });
    try {
      await streamText({
        model: await anthropicModel(server.baseURL),
        prompt: "hi",
        ...toolkit,
      }).consumeStream();
    } finally {
      await toolkit.close();
    }
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0.4, max_tokens: 77 });
    expect(server.requests[0]?.headers["x-app"]).toBe("mine");
  });

  it("mergeCallOptions: the turn's value wins, headers and each provider's options merge", () => {
    expect(
      mergeCallOptions(
        {
          seed: 1,
          temperature: 0,
          headers: { a: "1" },
          providerOptions: { openai: { user: "u", store: false } },
        },
        { temperature: 1, headers: { b: "2" }, providerOptions: { openai: { store: true } } },
      ),
    ).toEqual({
      seed: 1,
      temperature: 1,
      headers: { a: "1", b: "2" },
      providerOptions: { openai: { user: "u", store: true } },
    });
  });
});
