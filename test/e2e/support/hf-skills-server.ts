/**
 * The Hugging Face MCP server (`@llmindset/hf-mcp-server`, third-party) serving a local skills
 * distribution over Streamable HTTP, for interop tests of skillrt's SEP-2640 client: a distribution
 * builder (skill folders plus the `skills.json` manifest of entries and digests the server verifies at
 * start), the server as a child process on a loopback port, and a recording proxy in front of it that logs
 * every JSON-RPC request (method and URI) and can switch upstream to another server mid-run (a deploy
 * behind the listing's back).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const SERVER = path.resolve("node_modules/@llmindset/hf-mcp-server/dist/server/streamableHttp.js");

/** Files of one skill by relative path; `SKILL.md` is required. */
export type SkillFiles = Record<string, string>;

const digest = (text: string): string => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/**
 * Writes a distribution at `dir`: each skill's files under `dir/<skill>/`, and `skills.json` whose entries
 * carry `frontmatter` (given per skill: the server checks it against the SKILL.md) and every file's digest.
 */
export async function writeDistribution(
  dir: string,
  skills: Record<string, { frontmatter: Record<string, unknown>; files: SkillFiles }>,
): Promise<void> {
  const entries = [];
  for (const [name, skill] of Object.entries(skills)) {
    const resources = [];
    for (const [rel, text] of Object.entries(skill.files)) {
      await mkdir(path.dirname(path.join(dir, name, rel)), { recursive: true });
      await writeFile(path.join(dir, name, rel), text);
      resources.push({ uri: `skill://${name}/${rel}`, digest: digest(text) });
    }
    entries.push({ uri: `skill://${name}/SKILL.md`, frontmatter: skill.frontmatter, resources });
  }
  await writeFile(path.join(dir, "skills.json"), JSON.stringify({ skills: entries }, null, 2));
}

/** A running Hugging Face server. */
export interface HfServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the server on a free loopback port serving `distDir` (resolves once it listens). */
export async function startHfServer(distDir: string): Promise<HfServer> {
  let output = "";
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [SERVER, "--port", String(port)], {
      env: { PATH: process.env["PATH"] ?? "", HOME: distDir, HF_SKILLS_DIR: distDir, LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const started = await new Promise<boolean>((resolve) => {
      let out = "";
      const onData = (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("Server running at")) resolve(true);
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", () => {
        output = out;
        resolve(false);
      });
    });
    if (started) return { url: `http://127.0.0.1:${port}/mcp`, stop: () => stopChild(child) };
    // Another process took the port between the probe and the start: another one.
    if (attempt >= 4)
      throw new Error(`the Hugging Face MCP server did not start; it printed:\n${output.slice(-2_000)}`);
  }
}

/** One request the proxy passed on. */
export interface LoggedRequest {
  method: string;
  uri?: string;
}

/** A recording proxy in front of one or more servers. */
export interface RecordingProxy {
  url: string;
  log: LoggedRequest[];
  /** Sends every request after the first `skills/list` to `url` instead. */
  switchAfterListing(url: string): void;
  close(): Promise<void>;
}

/** A loopback proxy to `upstream` recording each JSON-RPC request's method and `params.uri`. */
export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const log: LoggedRequest[] = [];
  let target = upstream;
  let next: string | undefined;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let method: string | undefined;
    if (body.length > 0) {
      const message = JSON.parse(body.toString("utf8")) as { method?: string; params?: { uri?: string } };
      method = message.method;
      if (method !== undefined)
        log.push({ method, ...(message.params?.uri === undefined ? {} : { uri: message.params.uri }) });
    }
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.headers))
      if (typeof value === "string" && key !== "host" && key !== "content-length") headers[key] = value;
    const answer = await fetch(target, {
      method: req.method ?? "POST",
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const out = Buffer.from(await answer.arrayBuffer());
    const outHeaders: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      if (key !== "content-length" && key !== "transfer-encoding" && key !== "content-encoding")
        outHeaders[key] = value;
    });
    res.writeHead(answer.status, outHeaders).end(out);
    if (method === "skills/list" && next !== undefined) {
      target = next;
      next = undefined;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    switchAfterListing: (url) => {
      next = url;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
