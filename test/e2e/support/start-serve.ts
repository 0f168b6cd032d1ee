/** Starts the built `skillrt serve` as a child process and reads the URL it prints first. */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const bin = path.resolve(import.meta.dirname, "../../../bin/skillrt.js");

/** A running `skillrt serve`. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Runs `skillrt serve ...args` in `cwd` with exactly `env` (plus PATH, HOME=cwd unless given). */
export function startServe(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, "serve", ...args], {
    cwd: options.cwd,
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: options.cwd, NO_COLOR: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`skillrt serve did not start in 30 s:\n${stderr}`));
    }, 30_000);
    child.stdout?.on("data", (d) => {
      stdout += String(d);
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line !== undefined) {
        clearTimeout(timer);
        resolve({
          url: line,
          child,
          stderr: () => stderr,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
            return exited;
          },
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`skillrt serve exited with ${code} before listening:\n${stderr}`));
    });
  });
}
