/** Test helper: `skillrt mcp --http …` as a real process; resolves with the URL it prints first. */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "../../..");
const bin = path.join(repo, "bin", "skillrt.js");

/** A running `skillrt mcp --http`. */
export interface McpHttpProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `skillrt mcp --http` with `args` (and `env`), waiting up to `timeoutMs` for its URL. */
export async function startMcpHttp(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<McpHttpProcess> {
  const child = spawn(process.execPath, [bin, "mcp", "--http", ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
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
  return {
    url,
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
