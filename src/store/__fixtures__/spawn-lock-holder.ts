/** Starts `lock-holder.mjs` and resolves once it holds the lock (with the child, to kill it). */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const holderScript = fileURLToPath(new URL("./lock-holder.mjs", import.meta.url));

/** Runs the lock holder with `args` (see the script) and waits for its "locked" line. */
export function spawnLockHolder(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [holderScript, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().startsWith("locked")) resolve(child);
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`lock holder exited (${String(code)}): ${stderr}`)));
  });
}

/** Kills `child` with SIGKILL and waits for it to be gone. */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
