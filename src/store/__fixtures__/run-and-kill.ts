/** Runs `crash-writer.mjs` and kills it with SIGKILL mid-write. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const writer = fileURLToPath(new URL("./crash-writer.mjs", import.meta.url));

/**
 * Starts the writer and kills it with SIGKILL once it has reported `after` committed writes. Resolves with
 * the highest write it reported, read until its stdout closed (it prints only after a commit returned).
 */
export function runAndKill(where: string, option: string, after: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [writer, where, option], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let committed = 0;
    let buffered = "";
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) committed = Math.max(committed, Number(line));
      if (committed >= after && child.exitCode === null && !child.killed) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      if (signal === "SIGKILL") resolve(committed);
      else reject(new Error(`writer exited early (${String(_code)}): ${stderr}`));
    });
  });
}
