/** Helpers of the adversarial suite: a skill, a workspace and an executor, tree snapshots, a second uid. */
import { spawnSync } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readlink, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SkillRecord } from "../../src/catalog/types.js";
import { createExecutor } from "../../src/exec/create-executor.js";
import type { Executor } from "../../src/exec/executor.js";
import type { SkillRunContext } from "../../src/exec/run-config.js";
import { runSkillCommand, type SkillRunResult } from "../../src/exec/run-skill-command.js";
import { probeSandbox } from "../../src/exec/sandbox-executor.js";
import type { Workspace } from "../../src/exec/workspace.js";
import { renderRunText } from "../../src/tools/render-run-result.js";
import { SkillRunInput } from "../../src/tools/skill-run-input.js";
import { toSkillRunOutput } from "../../src/tools/skill-run-output.js";

/** The sandbox when bubblewrap works here (the attacker's real position), else the local executor. */
export function attackExecutor(): Executor {
  return createExecutor({ kind: probeSandbox().ok ? "sandbox" : "local" }).executor;
}

/** A fresh real temp directory. */
export async function tempDir(prefix: string): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** A skill directory `<dir>/<name>` with a SKILL.md, as a record. */
export async function attackSkill(dir: string, name = "attacker"): Promise<SkillRecord> {
  const skillDir = path.join(dir, name);
  await mkdir(path.join(skillDir, "scripts"), { recursive: true });
  await writeFile(
    path.join(skillDir, "SKILL.md"),
    `---\nname: ${name}\ndescription: adversarial skill\n---\nBody.\n`,
  );
  return {
    name,
    description: "adversarial skill",
    location: path.join(skillDir, "SKILL.md"),
    dir: skillDir,
    scope: "root",
  } as SkillRecord;
}

/** A root-only directory outside every workspace holding `secret.txt` with a unique token. */
export async function rootOnlySecret(base: string): Promise<{ dir: string; token: string }> {
  const dir = path.join(base, "root-only");
  await mkdir(dir, { mode: 0o700 });
  const token = `ROOT-ONLY-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  await writeFile(path.join(dir, "secret.txt"), `${token}\n`, { mode: 0o600 });
  return { dir, token };
}

/** Every entry below `dir` with its kind, size, mode, owner and link target: compare before and after. */
export async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    const full = path.join(dir, rel);
    const stat = await lstat(full);
    const kind = stat.isSymbolicLink() ? `link:${await readlink(full)}` : stat.isDirectory() ? "dir" : "file";
    out.push(`${rel}|${kind}|${stat.isFile() ? stat.size : ""}|${stat.mode}|${stat.uid}|${stat.mtimeMs}`);
    if (stat.isDirectory()) for (const name of (await readdir(full)).sort()) await walk(path.join(rel, name));
  }
  await walk(".");
  return out;
}

/**
 * Runs a skill command as the `skill_run` tool would (its schema first) and returns the result and
 * everything the model could see of it: the rendered text and the structured result.
 */
export async function runAndShow(
  request: Record<string, unknown>,
  context: SkillRunContext,
): Promise<{ result: SkillRunResult; seen: string }> {
  const result = await runSkillCommand(SkillRunInput.parse(request), context);
  const text = result.status === "refused" ? result.message : renderRunText(toSkillRunOutput(result));
  return { result, seen: `${text}\n${JSON.stringify(result)}` };
}

/** A context for runs of `skill` in `workspace`. */
export function contextFor(workspace: Workspace, skill: SkillRecord, executor: Executor): SkillRunContext {
  return { workspace, executor, getSkill: (name) => (name === skill.name ? skill : undefined) };
}

/** Whether a real second uid is available (running as root with setpriv). */
export const secondUid: { ok: boolean; reason: string } = (() => {
  if (process.getuid?.() !== 0) return { ok: false, reason: "not running as root: no second uid to act as" };
  const probe = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "id", "-u"], {
    encoding: "utf8",
  });
  if (probe.status !== 0 || probe.stdout.trim() !== "65534")
    return {
      ok: false,
      reason: `setpriv cannot switch to uid 65534: ${probe.stderr || probe.error?.message}`,
    };
  return { ok: true, reason: "" };
})();

/** Runs a shell script as uid/gid 65534 (nobody); throws when it fails. */
export function asNobody(script: string): void {
  const run = spawnSync(
    "setpriv",
    ["--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-ec", script],
    {
      encoding: "utf8",
    },
  );
  if (run.status !== 0) throw new Error(`as nobody failed (${run.status}): ${run.stderr}`);
}
