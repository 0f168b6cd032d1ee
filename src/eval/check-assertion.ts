/**
 * The deterministic checks of an outcome eval's trial: files in what the trial left (exists, contains,
 * matches, JSON fields), the final answer, and the skill's own `evals/` scripts (pass on exit 0).
 */
import { execFile } from "node:child_process";
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
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

/**
 * Runs one check against a trial's outputs; `skillDir` holds the scripts it may name, which run with
 * `searchPath` as their `PATH` (default `/usr/local/bin:/usr/bin:/bin`) and nothing else of the environment.
 */
export async function checkAssertion(
  a: OutcomeAssertion,
  outputs: TrialOutputs,
  skillDir: string,
  searchPath = "/usr/local/bin:/usr/bin:/bin",
): Promise<AssertionResult> {
  const text = describeAssertion(a);
  const fail = (detail: string): AssertionResult => ({ text, passed: false, detail });
  if (a.script !== undefined)
    return { text, ...(await runScript(a.script, a.args ?? [], outputs, skillDir, searchPath)) };
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

/** Interpreters by extension; anything else runs as an executable. */
const INTERPRETERS: Record<string, string> = {
  ".js": process.execPath,
  ".mjs": process.execPath,
  ".cjs": process.execPath,
  ".py": "python3",
  ".sh": "sh",
};

async function runScript(
  script: string,
  args: readonly string[],
  outputs: TrialOutputs,
  skillDir: string,
  searchPath: string,
): Promise<{ passed: boolean; detail?: string }> {
  // The script must be the skill's own file, not a link out of its folder.
  let real: string;
  try {
    const root = await realpath(skillDir);
    real = await realpath(path.resolve(skillDir, script));
    if (!isInside(root, real)) return { passed: false, detail: `${script} is outside the skill folder` };
  } catch {
    return { passed: false, detail: `${script} does not exist in the skill folder` };
  }
  const interpreter = INTERPRETERS[path.extname(real)];
  const [command, argv] = interpreter === undefined ? [real, [...args]] : [interpreter, [real, ...args]];
  return await new Promise((resolve) => {
    execFile(
      command,
      argv,
      {
        cwd: outputs.filesDir,
        timeout: SCRIPT_TIMEOUT_MS,
        maxBuffer: 1024 * 1024,
        // Only what a check needs: no keys of the user's environment reach it.
        env: {
          PATH: searchPath,
          HOME: outputs.filesDir,
          ANSWER_FILE: outputs.answerFile,
          SKILL_DIR: skillDir,
        },
      },
      (error, stdout, stderr) => {
        const said = `${stdout}${stderr}`.trim().slice(-2000);
        if (error === null) resolve({ passed: true, ...(said === "" ? {} : { detail: said }) });
        else {
          const why = error.killed
            ? `timed out after ${SCRIPT_TIMEOUT_MS / 1000} s`
            : typeof error.code === "number"
              ? `exited ${error.code}`
              : error.message;
          resolve({ passed: false, detail: said === "" ? why : `${why}: ${said}` });
        }
      },
    );
  });
}
