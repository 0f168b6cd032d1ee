#!/usr/bin/env node
/**
 * The MCP conformance suite's client under test for the SEP-2640 client scenarios: `skillrt ask` with the
 * suite's server (the last argument, its URL) as its only `mcpServers` entry, a fresh HOME (so no verified
 * file cached by an earlier scenario is used) and a scripted model on the OpenAI wire format that loads
 * the scenario's skill, then reads a supporting file of it — what a model would do next (for
 * `sep-2640-client-no-prefetch`, which checks that listing fetches nothing, it only answers).
 * Usage: conformance client --scenario NAME --command "node conformance-ask-client.mjs".
 * Exits with skillrt's exit code; `ask`'s output goes to stderr.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "../../..");
const { startLoopbackProvider } = await import(path.join(repo, "dist", "lib", "test-kit.js"));

const url = process.argv.at(-1);
if (url === undefined || !/^https?:\/\//.test(url)) {
  process.stderr.write("usage: conformance-ask-client.mjs SERVER_URL\n");
  process.exit(2);
}
const skill = process.env.CONFORMANCE_SKILL ?? "pdf-processing";
const file = process.env.CONFORMANCE_FILE ?? "references/FORMS.md";

// no-prefetch checks that listing fetches nothing: its model loads no skill. The others load one.
const loads = process.env.MCP_CONFORMANCE_SCENARIO !== "sep-2640-client-no-prefetch";
const home = await mkdtemp(path.join(os.tmpdir(), "skillrt-conformance-client-"));
const provider = await startLoopbackProvider("openai", [
  ...(loads
    ? [
        { toolCalls: [{ name: "skill_load", input: { name: skill } }] },
        { toolCalls: [{ name: "skill_read", input: { name: skill, path: file } }] },
      ]
    : []),
  { text: "done" },
]);
let code = 1;
try {
  await mkdir(path.join(home, ".skillrt"), { recursive: true });
  await writeFile(
    path.join(home, ".skillrt", "config.json"),
    JSON.stringify({ mcpServers: { suite: { type: "http", url } } }),
  );
  const child = spawn(
    process.execPath,
    [path.join(repo, "bin", "skillrt.js"), "ask", `use the ${skill} skill`],
    {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        NO_COLOR: "1",
        OPENAI_BASE_URL: provider.baseURL,
        OPENAI_API_KEY: "sk-loopback",
        AGENT_MODEL: "loopback-model",
      },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  code = await new Promise((resolve) => child.once("exit", (c) => resolve(c ?? 1)));
  if (process.env.CONFORMANCE_SHOW_TOOLS === "1")
    for (const r of provider.requests)
      for (const m of r.body?.messages ?? [])
        if (m.role === "tool") process.stderr.write(`tool: ${m.content}\n`);
} finally {
  await provider.close();
  await rm(home, { recursive: true, force: true });
}
process.exit(code);
