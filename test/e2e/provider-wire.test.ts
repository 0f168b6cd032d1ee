/** Provider wiring at the wire level: runAgent + resolveModel against loopback OpenAI and Anthropic servers. */
import { tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadModelConfig } from "../../src/config/load-model-config.js";
import { describeModel } from "../../src/config/model-config.js";
import { ProviderError } from "../../src/engine/provider-error.js";
import { resolveModel } from "../../src/engine/resolve-model.js";
import { runAgent } from "../../src/engine/run-agent.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";

let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const echo = tool({
  description: "Echo a word",
  inputSchema: z.object({ word: z.string() }),
  execute: async ({ word }) => `echo:${word}`,
});

describe.each(["openai", "anthropic"] as const)("%s wire format", (format) => {
  it("streams text, runs a tool call, and sends the tool result back", async () => {
    server = await startLoopbackProvider(format, [
      { text: "Let me echo.", toolCalls: [{ name: "echo", input: { word: "hi" } }] },
      { text: "The echo said hi." },
    ]);
    const env =
      format === "openai"
        ? { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-test" }
        : { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: "sk-ant-test" };
    const config = await loadModelConfig({ env, cwd: "/nonexistent" });
    const deltas: string[] = [];
    const result = await runAgent({
      model: resolveModel(config),
      tools: { echo },
      system: "Be brief.",
      messages: [{ role: "user", content: "echo hi" }],
      onEvent: (e) => {
        if (e.type === "text-delta") deltas.push(e.text);
      },
    });
    expect(result.text).toBe("The echo said hi.");
    expect(deltas.join("")).toBe("Let me echo.The echo said hi.");
    expect(server.requests).toHaveLength(2);
    const second = JSON.stringify(server.requests[1]!.body);
    expect(second).toContain("echo:hi");
    expect(second).toContain("Be brief.");
    expect(server.requests[0]!.body.stream).toBe(true);
    expect(result.usage.inputTokens).toBe(200);
  });

  it("a provider that answers 500 every time ends with a one-paragraph error after the retries", async () => {
    server = await startLoopbackProvider(format, Array(5).fill({ status: 500 }));
    const env =
      format === "openai"
        ? { OPENAI_BASE_URL: server.baseURL, SKILLRT_MAX_ATTEMPTS: "3" }
        : { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: "k", SKILLRT_MAX_ATTEMPTS: "3" };
    const config = await loadModelConfig({ env, cwd: "/nonexistent" });
    const error = await runAgent({
      model: resolveModel(config, { baseDelayMs: 1 }),
      messages: [{ role: "user", content: "hi" }],
    }).catch((e) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(error.message).toContain("HTTP 500");
    expect(error.message).not.toContain("\n");
  });

  it.each([
    ["never answers", { text: "late", delayMs: 600_000 }, "sent nothing for 0.5 s (the first-byte deadline)"],
    [
      "stalls mid-stream",
      { text: "Half an answ", stall: true },
      "in the middle of its answer (the idle deadline)",
    ],
  ] as const)(
    "a provider that %s fails the step at the deadline, once, with the steps before kept",
    async (_what, stalled, phrase) => {
      server = await startLoopbackProvider(format, [
        { text: "Echoing.", toolCalls: [{ name: "echo", input: { word: "hi" } }] },
        stalled,
      ]);
      const env =
        format === "openai"
          ? { OPENAI_BASE_URL: server.baseURL, AGENT_MODEL: "slow-model" }
          : { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: "k", AGENT_MODEL: "slow-model" };
      const config = await loadModelConfig({
        env,
        cwd: "/nonexistent",
        flags: { firstByteTimeoutMs: 500, idleTimeoutMs: 500 },
      });
      const start = Date.now();
      const error = await runAgent({
        model: resolveModel(config),
        tools: { echo },
        messages: [{ role: "user", content: "echo hi" }],
        modelLabel: describeModel(config),
      }).catch((e) => e);
      const elapsed = Date.now() - start;
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error.timedOut).toBe(true);
      expect(error.message).toContain(`model 'slow-model' at ${server.baseURL}`);
      expect(error.message).toContain(phrase);
      expect(error.message).toContain("--model-timeout");
      expect(error.message).not.toContain("\n");
      // Not retried: one request for the tool step, one for the stalled step.
      expect(server.requests).toHaveLength(2);
      expect(elapsed).toBeLessThan(5_000);
      // The completed tool step is carried, so the caller can save it.
      expect(JSON.stringify(error.messages)).toContain("echo:hi");
    },
  );
});
