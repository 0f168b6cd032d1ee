/** `skillrt ask` with config `model.fallback`: the step moves to the next provider, and stderr says so. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
let cwd: string;
let primary: LoopbackProvider;
let backup: LoopbackProvider;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-ask-fallback-"));
  primary = await startLoopbackProvider("openai", []);
  backup = await startLoopbackProvider("openai", []);
});
afterEach(async () => {
  await primary.close();
  await backup.close();
  await rm(cwd, { recursive: true, force: true });
});

it("ask: the main provider answers 429 after its retries; the fallback provider answers with the catalog", async () => {
  // The user's own config (HOME is the cwd): an untrusted project's file could not set these.
  await mkdir(path.join(cwd, ".skillrt"), { recursive: true });
  await writeFile(
    path.join(cwd, ".skillrt", "config.json"),
    JSON.stringify({
      model: {
        provider: "openai-compatible",
        model: "main",
        baseURL: primary.baseURL,
        maxAttempts: 1,
        fallback: [{ provider: "openai-compatible", model: "backup", baseURL: backup.baseURL }],
      },
    }),
  );
  primary.script.push({
    status: 429,
    headers: { "retry-after": "0" },
    body: '{"error":{"message":"slow down"}}',
  });
  backup.script.push({ text: "Backup answer." });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d) => (out += String(d)));
  stderr.on("data", (d) => (err += String(d)));
  const code = await main(["ask", "--root", examples, "hello"], {
    stdin: new PassThrough(),
    stdout,
    stderr,
    cwd,
    env: { HOME: cwd },
  });
  expect(code).toBe(0);
  expect(out).toContain("Backup answer.");
  expect(err).toContain(
    "openai-compatible.chat/main failed (HTTP 429); openai-compatible.chat/backup takes the call",
  );
  expect(primary.requests).toHaveLength(1);
  const sent = backup.requests[0]!.body;
  expect(sent.model).toBe("backup");
  expect(JSON.stringify(sent.messages)).toContain("csv-summary");
});
