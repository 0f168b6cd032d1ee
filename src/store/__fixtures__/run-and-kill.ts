/** Runs `crash-writer.mjs` and kills it with SIGKILL mid-write. */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { StoredSession } from "../session-store.js";

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

/**
 * Asserts that the snapshot read back after a kill is the writer's last committed write (or the one in
 * flight at the kill), whole (payload length and digest match) and newer than `lastSeen`. Returns its version.
 */
export function expectIntactSnapshot(
  got: StoredSession | undefined,
  committed: number,
  lastSeen: number,
): number {
  const data = got?.data as { n: number; size: number; digest: string; payload: string };
  expect(data.n).toBeGreaterThanOrEqual(committed);
  expect(data.n).toBeLessThanOrEqual(committed + 1);
  expect(data.payload.length).toBe(data.size);
  expect(createHash("sha256").update(data.payload).digest("hex")).toBe(data.digest);
  expect(got?.version).toBeGreaterThan(lastSeen);
  return got?.version ?? 0;
}
