/**
 * The provider fallback chain end to end: config `model.fallback` read by `loadModelConfig`, resolved by
 * `resolveModel`, against two loopback providers speaking different wire formats.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { generateText, streamText } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadModelConfig } from "../config/load-model-config.js";
import { type LoopbackProvider, startLoopbackProvider } from "../testing/start-loopback-provider.js";
import type { FallbackNotice } from "./fallback-model.js";
import { resolveModel } from "./resolve-model.js";

let dir: string;
let primary: LoopbackProvider;
let backup: LoopbackProvider;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-fallback-"));
  primary = await startLoopbackProvider("openai", []);
  backup = await startLoopbackProvider("anthropic", []);
  // The user's own config: an untrusted project's file cannot choose endpoints or name a key variable.
  await mkdir(path.join(dir, ".skillrt"));
  await writeFile(
    path.join(dir, ".skillrt", "config.json"),
    JSON.stringify({
      model: {
        provider: "openai-compatible",
        model: "main-model",
        baseURL: primary.baseURL,
        maxAttempts: 2,
        fallback: [
          { provider: "anthropic", model: "backup-model", baseURL: backup.baseURL, apiKeyEnv: "BACKUP_KEY" },
        ],
      },
    }),
  );
});
afterEach(async () => {
  await primary.close();
  await backup.close();
  await rm(dir, { recursive: true, force: true });
});

async function chain(notices: FallbackNotice[]) {
  const config = await loadModelConfig({ env: { BACKUP_KEY: "sk-ant-backup" }, cwd: dir, home: dir });
  return resolveModel(config, { baseDelayMs: 1, onFallback: (n) => notices.push(n) });
}

describe("model.fallback", () => {
  it("a provider failing with 503 after its retries hands the step to the next one", async () => {
    const unavailable = { status: 503, body: '{"error":{"message":"overloaded"}}' };
    primary.script.push(unavailable, unavailable, unavailable, unavailable);
    backup.script.push({ text: "answer from the backup" }, { text: "streamed from the backup" });
    const notices: FallbackNotice[] = [];
    const model = await chain(notices);

    const { text } = await generateText({ model, prompt: "hi", maxRetries: 0 });
    expect(text).toBe("answer from the backup");
    // Its two attempts (maxAttempts 2), then the backup with its own key and model.
    expect(primary.requests).toHaveLength(2);
    expect(backup.requests).toHaveLength(1);
    expect(backup.requests[0]!.headers["x-api-key"]).toBe("sk-ant-backup");
    expect((backup.requests[0]!.body as { model: string }).model).toBe("backup-model");
    expect(notices).toEqual([
      { from: "openai-compatible.chat/main-model", to: "anthropic.messages/backup-model", status: 503 },
    ]);

    const stream = streamText({ model, prompt: "again", maxRetries: 0 });
    expect(await stream.text).toBe("streamed from the backup");
    expect(primary.requests).toHaveLength(4);
  });

  it("an error a retry would not fix (401) is the answer: the next provider is not asked", async () => {
    primary.script.push({ status: 401, body: '{"error":{"message":"bad key"}}' });
    backup.script.push({ text: "never" });
    const notices: FallbackNotice[] = [];
    const model = await chain(notices);
    await expect(generateText({ model, prompt: "hi", maxRetries: 0 })).rejects.toThrow(/bad key/);
    expect(backup.requests).toHaveLength(0);
    expect(notices).toEqual([]);
  });

  it("without a fallback section the model is the provider's own", async () => {
    await writeFile(path.join(dir, ".skillrt", "config.json"), JSON.stringify({ model: { model: "m" } }));
    const config = await loadModelConfig({ env: {}, cwd: dir, home: dir });
    expect(config.fallback).toBeUndefined();
  });
});
