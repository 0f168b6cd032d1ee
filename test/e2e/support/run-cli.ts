/** Runs the built CLI (`bin/skillrt.js`) as a child process. */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
// @ts-expect-error: a plain build-time module without types
import { buildStamp, builtStamp } from "../../../scripts/build-stamp.mjs";

const repo = path.resolve(import.meta.dirname, "../../..");
const bin = path.join(repo, "bin", "skillrt.js");

/** What a CLI run produced. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the run in ms. */
  ms: number;
}

/**
 * Fails with a clear message when `dist/` is missing or was built from other sources than src/'s (its
 * stamp, scripts/build-stamp.mjs, differs).
 */
export function assertBuilt(): void {
  const built = builtStamp(repo);
  if (built === undefined)
    throw new Error("dist/ is missing: run `npm run build` before the e2e tests (npm test does it).");
  if (built !== buildStamp(repo))
    throw new Error("dist/ was built from other sources than src/: run `npm run build` first.");
}

/**
 * Runs `skillrt ...args` in `cwd` with exactly `env` (plus PATH and HOME=cwd unless given); with
 * `timeoutMs`, a run still going then is killed (SIGKILL; `code` null), so a hang fails its test quickly.
 */
export function runCli(
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: options.cwd, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += String(d);
    });
    child.stderr.on("data", (d) => {
      stderr += String(d);
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * Writes `config` as the project's `skillrt.config.json` in `cwd` and trusts it with `skillrt trust`
 * (HOME=cwd unless `env` gives one), as a user does before its MCP servers, model endpoint or `${env:X}`
 * values apply.
 */
export async function writeTrustedConfig(
  cwd: string,
  config: unknown,
  env: Record<string, string> = {},
): Promise<void> {
  await writeFile(
    path.join(cwd, "skillrt.config.json"),
    typeof config === "string" ? config : JSON.stringify(config),
  );
  const trusted = await runCli(["trust", cwd], { cwd, env });
  if (trusted.code !== 0) throw new Error(`skillrt trust failed: ${trusted.stderr}`);
}
