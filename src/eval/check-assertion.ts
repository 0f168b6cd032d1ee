/**
 * The deterministic checks of an outcome eval's trial: files in what the trial left (exists, contains,
 * matches, JSON fields), the final answer, and the skill's own `evals/` scripts (pass on exit 0).
 */
import { execFile } from "node:child_process";
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Executor } from "../exec/executor.js";
import type { OutcomeAssertion } from "./outcome-cases.js";

/** What one check found. */
export interface AssertionResult {
  /** The check in words (`out/count.json contains "words"`). */
  text: string;
  passed: boolean;
  /** Why it failed (or what a script printed). */
  detail?: string;
}

/** Where a trial's results are. */
export interface TrialOutputs {
  /** The trial's folder (holding {@link filesDir} and {@link answerFile}). */
  trialDir: string;
  /** The folder holding what the trial's workspace left (`out/`, `work/`). */
  filesDir: string;
  /** The agent's final answer. */
  answer: string;
  /** A file holding {@link answer}, handed to scripts as `ANSWER_FILE`. */
  answerFile: string;
}

/** How long an `evals/` script may run. */
export const SCRIPT_TIMEOUT_MS = 60_000;

/** The check in words, for reports. */
export function describeAssertion(a: OutcomeAssertion): string {
  if (a.script !== undefined) return `${[a.script, ...(a.args ?? [])].join(" ")} exits 0`;
  const subject = a.file ?? "the answer";
  const parts: string[] = [];
  if (a.exists === false) parts.push("does not exist");
  if (a.contains !== undefined) parts.push(`contains ${JSON.stringify(a.contains)}`);
  if (a.not_contains !== undefined) parts.push(`does not contain ${JSON.stringify(a.not_contains)}`);
  if (a.matches !== undefined) parts.push(`matches /${a.matches}/`);
  if (a.json !== undefined) parts.push(`has JSON ${JSON.stringify(a.json)}`);
  return `${subject} ${parts.length === 0 ? "exists" : parts.join(", ")}`;
}

/** How `evals/` scripts run. */
export interface ScriptOptions {
  /**
   * The executor that runs them (the sandbox: the skill folder mounted read-only, the trial's folder
   * read-write, nothing else of the host). Default: a plain child process on the host.
   */
  executor?: Executor;
  /** Their `PATH`. Default `/usr/local/bin:/usr/bin:/bin`. */
  searchPath?: string;
}

/**
 * Runs one check against a trial's outputs; `skillDir` holds the scripts it may name, which run with
 * only `PATH`, `HOME` (the trial's files folder), `ANSWER_FILE` and `SKILL_DIR` in their environment.
 */
export async function checkAssertion(
  a: OutcomeAssertion,
  outputs: TrialOutputs,
  skillDir: string,
  options: ScriptOptions = {},
): Promise<AssertionResult> {
  const text = describeAssertion(a);
  const fail = (detail: string): AssertionResult => ({ text, passed: false, detail });
  if (a.script !== undefined)
    return { text, ...(await runScript(a.script, a.args ?? [], outputs, skillDir, options)) };
  let content = outputs.answer;
  if (a.file !== undefined) {
    const file = path.resolve(outputs.filesDir, a.file);
    if (!isInside(outputs.filesDir, file)) return fail(`${a.file} is outside the trial's files`);
    const exists = await stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (a.exists === false) return exists ? fail(`${a.file} exists`) : { text, passed: true };
    if (!exists) return fail(`${a.file} was not written`);
    content = await readFile(file, "utf8");
  }
  if (a.contains !== undefined && !content.includes(a.contains))
    return fail(`${JSON.stringify(a.contains)} not found`);
  if (a.not_contains !== undefined && content.includes(a.not_contains))
    return fail(`${JSON.stringify(a.not_contains)} found`);
  if (a.matches !== undefined && !new RegExp(a.matches).test(content))
    return fail(`no match for /${a.matches}/`);
  if (a.json !== undefined) {
    let data: unknown;
    try {
      data = JSON.parse(content);
    } catch {
      return fail("not JSON");
    }
    for (const [field, want] of Object.entries(a.json)) {
      const got = field.split(".").reduce<unknown>((value, key) => {
        if (typeof value !== "object" || value === null) return undefined;
        return (value as Record<string, unknown>)[key];
      }, data);
      if (!isDeepStrictEqual(got, want))
        return fail(`${field} is ${JSON.stringify(got) ?? "missing"}, expected ${JSON.stringify(want)}`);
    }
  }
  return { text, passed: true };
}

function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** Interpreters by extension (looked up on `PATH`); anything else runs as an executable. */
const INTERPRETERS: Record<string, string> = {
  ".js": "node",
  ".mjs": "node",
  ".cjs": "node",
  ".py": "python3",
  ".sh": "sh",
};

async function runScript(
  script: string,
  args: readonly string[],
  outputs: TrialOutputs,
  skillDir: string,
  options: ScriptOptions,
): Promise<{ passed: boolean; detail?: string }> {
  // The script must be the skill's own file, not a link out of its folder.
  let real: string;
  let root: string;
  try {
    root = await realpath(skillDir);
    real = await realpath(path.resolve(skillDir, script));
    if (!isInside(root, real)) return { passed: false, detail: `${script} is outside the skill folder` };
  } catch {
    return { passed: false, detail: `${script} does not exist in the skill folder` };
  }
  const interpreter = INTERPRETERS[path.extname(real)];
  const argv = interpreter === undefined ? [real, ...args] : [interpreter, real, ...args];
  const env = {
    PATH: options.searchPath ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: outputs.filesDir,
    ANSWER_FILE: outputs.answerFile,
    SKILL_DIR: root,
  };
  const result =
    options.executor === undefined
      ? await runOnHost(argv, outputs.filesDir, env)
      : await options.executor.run({
          command: argv,
          cwd: outputs.filesDir,
          env,
          timeoutMs: SCRIPT_TIMEOUT_MS,
          mounts: [
            { source: root, readOnly: true },
            { source: outputs.trialDir, readOnly: false },
          ],
        });
  const said = `${result.stdout}${result.stderr}`.trim().slice(-2000);
  if (result.exitCode === 0 && !result.timedOut)
    return { passed: true, ...(said === "" ? {} : { detail: said }) };
  const why = result.timedOut ? `timed out after ${SCRIPT_TIMEOUT_MS / 1000} s` : `exited ${result.exitCode}`;
  return { passed: false, detail: said === "" ? why : `${why}: ${said}` };
}

/** A plain child process (no sandbox), for callers that give no executor. */
function runOnHost(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ exitCode: number; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    execFile(
      argv[0]!,
      argv.slice(1),
      { cwd, env, timeout: SCRIPT_TIMEOUT_MS, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolve({ exitCode: 0, stdout, stderr, timedOut: false });
        else
          resolve({
            exitCode: typeof error.code === "number" ? error.code : -1,
            stdout,
            stderr: stderr === "" && typeof error.code !== "number" ? error.message : stderr,
            timedOut: error.killed === true,
          });
      },
    );
  });
}
