// A flood of notifications from an MCP server during one tool call (the rogue fixture server's `flood`:
// N log and progress notifications, then the answer), measured three ways, each in its own process:
//   floor     — a reader that only splits the server's stdout into lines (what any client must do)
//   sdk       — the MCP SDK's client as skillrt used it before (every notification parsed and dispatched)
//   skillrt   — connectMcpServer (notifications rate-limited at the transport)
// Prints { notifications, floor, sdk, skillrt } with { ms, peakRssDeltaMb } each, as JSON.
// Run after `npm run build`: npx node bench/mcp-flood.mjs [--notifications N]
import { spawn } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const N = Number(arg("notifications", 100_000));
const mode = arg("mode", undefined);
const server = path.resolve(import.meta.dirname, "../src/tools/mcp-client/__fixtures__/rogue-server.mjs");
const serverEnv = { ...process.env, ROGUE_FLOOD: String(N) };

/** Runs `call` while sampling RSS every 5 ms; the peak over the RSS before it, and the time. */
async function measure(call) {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const start = performance.now();
  await call();
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms: Math.round(ms), peakRssDeltaMb: Math.round(((peak - baseline) / 1024 / 1024) * 10) / 10 };
}

async function floor() {
  const child = spawn(process.execPath, [server], { env: serverEnv, stdio: ["pipe", "pipe", "ignore"] });
  const lines = createInterface({ input: child.stdout });
  const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  const wait = (id) =>
    new Promise((resolve) => {
      const onLine = (line) => {
        if (line.startsWith(`{"jsonrpc":"2.0","id":${id},`)) {
          lines.off("line", onLine);
          resolve();
        }
      };
      lines.on("line", onLine);
    });
  send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {} } });
  await wait(1);
  send({ method: "notifications/initialized" });
  const result = await measure(async () => {
    send({
      id: 2,
      method: "tools/call",
      params: { name: "flood", arguments: {}, _meta: { progressToken: 7 } },
    });
    await wait(2);
  });
  child.kill();
  return result;
}

async function sdk() {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [server], env: serverEnv }),
  );
  const result = await measure(() =>
    client.callTool({ name: "flood", arguments: {} }, undefined, { timeout: 600_000, onprogress: () => {} }),
  );
  await client.close();
  return result;
}

async function skillrt() {
  const { connectMcpServer } = await import("../dist/tools/mcp-client/connect-mcp-server.js");
  const connected = await connectMcpServer(
    "rogue",
    { command: process.execPath, args: [server], env: { ROGUE_FLOOD: String(N) }, timeoutMs: 600_000 },
    { env: process.env },
  );
  if (!connected.ok) throw new Error(connected.message);
  const result = await measure(() => connected.connection.callTool("flood", {}));
  await connected.connection.close();
  return result;
}

if (mode !== undefined) {
  const run = { floor, sdk, skillrt }[mode];
  console.log(JSON.stringify(await run()));
} else {
  const runMode = (name) =>
    new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [import.meta.filename, "--mode", name, "--notifications", String(N)],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      let out = "";
      child.stdout.on("data", (d) => {
        out += String(d);
      });
      child.on("close", (code) =>
        code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${name} exited ${code}`)),
      );
    });
  const results = { notifications: N };
  for (const name of ["floor", "sdk", "skillrt"]) results[name] = await runMode(name);
  console.log(JSON.stringify(results));
}
