/**
 * Script tools: each entry point in a skill's `scripts/` becomes a tool `<skill>__<stem>` the session can
 * offer while the skill is loaded. A file is an entry point when SKILL.md names it (`scripts/<file>`), or
 * it is executable, starts with `#!`, or is a Python file with an `if __name__ == "__main__":` guard;
 * helper modules other scripts import (`scripts/utils.py`) are not tools. Descriptions come from the
 * script's leading docstring or comment block.
 */
import { open, readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { SkillRecord } from "../catalog/types.js";
import { type SkillRunConfig, type SkillRunContext, toSkillRunConfig } from "./run-config.js";
import { runSkillCommand, type SkillRunResult } from "./run-skill-command.js";

/** Input of every script tool. */
export const ScriptToolInput = z.object({
  args: z.array(z.string()).default([]).describe("Command-line arguments passed to the script."),
  stdin: z.string().optional().describe("Text written to the script's standard input."),
});
export type ScriptToolInput = z.infer<typeof ScriptToolInput>;

/** One script exposed as a tool. */
export interface ScriptTool {
  /** `<skill>__<script-stem>`, sanitised to `[a-zA-Z0-9_-]`, at most 64 characters. */
  toolName: string;
  skillName: string;
  description: string;
  /** Path relative to the skill root, e.g. `scripts/convert.py`. */
  scriptPath: string;
  /** Program (and arguments) placed before the script; empty when the script is executed directly. */
  interpreter: string[];
  /** JSON-schema-compatible zod schema of the input. */
  inputSchema: typeof ScriptToolInput;
}

const BY_EXTENSION: Record<string, string[]> = {
  ".py": ["python3"],
  ".js": ["node"],
  ".mjs": ["node"],
  ".cjs": ["node"],
  ".sh": ["bash"],
  ".bash": ["bash"],
};

/** Reads the first `max` bytes of a file as text. */
async function head(file: string, max = 8192): Promise<string> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(max);
    const { bytesRead } = await handle.read(buffer, 0, max, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** Interpreter from a `#!` line (`/usr/bin/env` is dropped) or the extension. */
export function interpreterFor(fileName: string, text: string): string[] {
  const shebang = /^#!\s*(.+)$/m.exec(text.split("\n", 1)[0] ?? "");
  if (shebang?.[1] !== undefined) {
    const parts = shebang[1].trim().split(/\s+/);
    if (path.basename(parts[0] ?? "") === "env") return parts.slice(1).filter((p) => p !== "-S");
    return parts;
  }
  return BY_EXTENSION[path.extname(fileName).toLowerCase()] ?? [];
}

function firstParagraph(text: string): string {
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? "";
  const flat = paragraph.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

/** The leading docstring (`"""…"""`, `/** … *\/`) or comment block (`#`, `//`) of a script, first paragraph. */
export function leadingDescription(text: string): string | undefined {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let i = 0;
  while (
    i < lines.length &&
    (/^#!/.test(lines[i] ?? "") || /^#.*coding[:=]/.test(lines[i] ?? "") || (lines[i] ?? "").trim() === "")
  )
    i++;
  const rest = lines.slice(i).join("\n");
  const doc = /^(?:[rRuU]?)("""|''')([\s\S]*?)\1/.exec(rest) ?? /^\/\*\*?([\s\S]*?)\*\//.exec(rest);
  if (doc !== null) {
    const body = (doc[2] ?? doc[1] ?? "").replace(/^\s*\* ?/gm, "");
    const found = firstParagraph(body);
    return found === "" ? undefined : found;
  }
  const comment: string[] = [];
  for (const line of lines.slice(i)) {
    const m = /^\s*(?:#|\/\/)\s?(.*)$/.exec(line);
    if (m === null) break;
    comment.push(m[1] ?? "");
  }
  const found = firstParagraph(comment.join("\n"));
  return found === "" ? undefined : found;
}

function toolNameFor(skill: string, stem: string, taken: Set<string>): string {
  const base = `${skill}__${stem}`.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 64 - String(n).length - 1)}_${n}`;
  taken.add(name);
  return name;
}

/** Whether `text` (a file of `scripts/`) runs as a program: a `#!` line or a Python main guard. */
function looksLikeEntryPoint(text: string): boolean {
  return text.startsWith("#!") || /^if\s+__name__\s*==\s*["']__main__["']\s*:/m.test(text);
}

/** Names of `scripts/` files SKILL.md mentions (`scripts/convert.py`, also as `./scripts/…`). */
async function declaredScripts(skillDir: string): Promise<Set<string>> {
  const text = await readFile(path.join(skillDir, "SKILL.md"), "utf8").catch(() => "");
  return new Set([...text.matchAll(/(?:^|[^\w/.-])\.?\/?scripts\/([\w.-]+)/g)].map((m) => m[1] ?? ""));
}

/**
 * Lists the script tools of a skill from its real `scripts/` directory: top-level files, no dotfiles,
 * only entry points (named in SKILL.md, executable, a `#!` line, or a Python main guard). Python helper
 * modules without a main guard, and `__init__.py`, stay helpers.
 */
export async function listScriptTools(record: Pick<SkillRecord, "name" | "dir">): Promise<ScriptTool[]> {
  if (record.dir.startsWith("memory:")) return [];
  const skillDir = await realpath(record.dir);
  const scriptsDir = path.join(skillDir, "scripts");
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(scriptsDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const declared = await declaredScripts(skillDir);
  const taken = new Set<string>();
  const tools: ScriptTool[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".") || entry.name === "__init__.py") continue;
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const full = path.join(scriptsDir, entry.name);
    let text: string;
    let executable: boolean;
    try {
      text = await head(full);
      executable = ((await stat(full)).mode & 0o111) !== 0;
    } catch {
      continue;
    }
    if (!declared.has(entry.name) && !executable && !looksLikeEntryPoint(text)) continue;
    const stem = entry.name.replace(/\.[^.]+$/, "");
    tools.push({
      toolName: toolNameFor(record.name, stem, taken),
      skillName: record.name,
      description: leadingDescription(text) ?? `Run scripts/${entry.name} of skill ${record.name}`,
      scriptPath: `scripts/${entry.name}`,
      interpreter: interpreterFor(entry.name, text),
      inputSchema: ScriptToolInput,
    });
  }
  return tools;
}

/**
 * Runs a script tool through `runSkillCommand` (same workspace, executor, policy and redaction). A flat
 * {@link SkillRunContext} (deprecated) is still accepted.
 */
export async function runScriptTool(
  tool: ScriptTool,
  input: unknown,
  run: SkillRunConfig | SkillRunContext,
): Promise<SkillRunResult> {
  const parsed = ScriptToolInput.safeParse(input ?? {});
  if (!parsed.success) {
    return {
      status: "refused",
      name: tool.skillName,
      message: `Invalid input for ${tool.toolName}: ${parsed.error.message}`,
    };
  }
  const command = [...tool.interpreter, tool.scriptPath, ...parsed.data.args];
  return runSkillCommand(
    {
      name: tool.skillName,
      command,
      ...(parsed.data.stdin === undefined ? {} : { stdin: parsed.data.stdin }),
    },
    toSkillRunConfig(run),
  );
}
