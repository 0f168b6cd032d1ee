/** Test helpers: the tracker MCP server fixture over stdio (a config entry) and over Streamable HTTP (a started process). */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { McpHttpServerConfig, McpStdioServerConfig } from "../../../config/mcp-servers-config.js";

/** Path of the fixture script. */
export const TRACKER_SCRIPT = path.join(import.meta.dirname, "tracker-server.mjs");

/** A stdio config entry starting the tracker with this Node (extra args: e.g. `--fail`). */
export function trackerStdio(
  env: Record<string, string> = {},
  extraArgs: string[] = [],
): McpStdioServerConfig {
  return { command: process.execPath, args: [TRACKER_SCRIPT, ...extraArgs], env };
}

/** A running HTTP tracker. */
export interface HttpTracker {
  url: string;
  config(headers?: Record<string, string>): McpHttpServerConfig;
  stop(): Promise<void>;
}

/** Starts the tracker over Streamable HTTP (or, with `sse`, the older HTTP+SSE transport only) on a random loopback port. */
export async function startHttpTracker(
  env: Record<string, string> = {},
  transport: "http" | "sse" = "http",
): Promise<HttpTracker> {
  const child: ChildProcess = spawn(process.execPath, [TRACKER_SCRIPT, `--${transport}`], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /url=(\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`tracker exited with ${code} before listening`)));
    child.once("error", reject);
  });
  return {
    url,
    config: (headers) => ({ url, ...(headers === undefined ? {} : { headers }) }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
