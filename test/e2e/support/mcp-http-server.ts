/**
 * Test helper: `skillrt mcp --http …` as a real process; resolves with the URL it prints first. Unless the
 * arguments choose a credential themselves (`--no-auth`, `--token-env`, `--token-file`), the server is
 * given `--token-file` in a fresh private directory (it writes a random token there) and the helper reads
 * the token back for the test's clients.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "../../..");
const bin = path.join(repo, "bin", "skillrt.js");

/** A running `skillrt mcp --http`. */
export interface McpHttpProcess {
  url: string;
  /** The bearer token, when the helper chose the credential. */
  token: string | undefined;
  /** `{ Authorization: "Bearer <token>" }`, or `{}` without a token. */
  headers: Record<string, string>;
  child: ChildProcess;
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `skillrt mcp --http` with `args` (and `env`), waiting up to `timeoutMs` for its URL. With
 * `serverToken`, the helper adds no `--token-file`: the server keeps its generated token where it would
 * for a user (the test reads it).
 */
export async function startMcpHttp(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
  serverToken = false,
): Promise<McpHttpProcess> {
  const chooses =
    serverToken || args.some((a) => a === "--no-auth" || a === "--token-env" || a === "--token-file");
  const tokenDir = chooses ? undefined : mkdtempSync(path.join(os.tmpdir(), "skillrt-mcp-token-"));
  const tokenFile = tokenDir === undefined ? undefined : path.join(tokenDir, "token");
  const extra = tokenFile === undefined ? [] : ["--token-file", tokenFile];
  const child = spawn(process.execPath, [bin, "mcp", "--http", ...extra, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      if (tokenDir !== undefined) rmSync(tokenDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL after ${timeoutMs} ms; stderr: ${err}`)),
      timeoutMs,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf("\n");
      if (end !== -1) {
        clearTimeout(timer);
        resolve(out.slice(0, end));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`skillrt mcp --http exited (${code}) before printing its URL; stderr: ${err}`));
    });
  });
  // The server writes the token file before it prints its URL.
  const token = tokenFile === undefined ? undefined : readFileSync(tokenFile, "utf8").trim();
  return {
    url,
    token,
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
