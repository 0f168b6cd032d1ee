/** The seed's `ZAI_API_KEY=… AGENT_MODEL=glm-5` end to end on the wire, against a loopback stand-in for Z.ai. */
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { generateText } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadModelConfig } from "../config/load-model-config.js";
import { resolveModel } from "./resolve-model.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-zai-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("Z.ai by key", () => {
  it("sends a chat completion to the Z.ai stand-in (loopback via ZAI_BASE_URL) with the key and model", async () => {
    const seen: { path?: string | undefined; auth?: string | undefined; model?: string } = {};
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        seen.path = req.url;
        seen.auth = req.headers.authorization;
        seen.model = (JSON.parse(body) as { model: string }).model;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "c1",
            object: "chat.completion",
            created: 0,
            model: "glm-5",
            choices: [
              { index: 0, message: { role: "assistant", content: "hello from glm" }, finish_reason: "stop" },
            ],
            usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const config = await loadModelConfig({
        env: {
          ZAI_API_KEY: "zk",
          AGENT_MODEL: "glm-5",
          ZAI_BASE_URL: `http://127.0.0.1:${port}/api/paas/v4`,
        },
        cwd: dir,
      });
      const { text } = await generateText({ model: resolveModel(config), prompt: "hi" });
      expect(text).toBe("hello from glm");
      expect(seen).toEqual({ path: "/api/paas/v4/chat/completions", auth: "Bearer zk", model: "glm-5" });
    } finally {
      server.close();
    }
  });
});
