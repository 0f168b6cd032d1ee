/**
 * Shell pre-render (Claude Code's `` !`command` ``): when a trusted skill loads, each `` !`command` `` in
 * its body and each ```` ```! ```` block runs — as in Claude Code — in the project directory (the
 * session's working directory, mounted read-only in the sandbox or a container; the skill's directory
 * inside the session workspace when no project directory is given or the executor copies its files into a
 * remote sandbox), with the run limits, and its output (capped, secrets redacted) takes the directive's
 * place. An untrusted
 * skill's directives are replaced by a note and never run. For a skill trusted by its digest, the body's
 * commands run only when the body is the one in the checked copy of the skill (a SKILL.md rewritten
 * after the trust was opened does not choose what runs).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { skillSpanAttributes } from "../catalog/skill-span-attributes.js";
import { ensureTrusted, type SkillTrust } from "../catalog/skill-trust.js";
import type { SkillRecord } from "../catalog/types.js";
import { SkillChangedError } from "../errors/skill-changed-error.js";
import { inSpan } from "../util/trace-span.js";
import type { RunSetup } from "./run-config.js";
import { runSkillCommand } from "./run-skill-command.js";
import { pinnedStaging } from "./verify-staged-skill.js";

/** One directive of a body: where it is and what it runs. */
export interface ShellDirective {
  kind: "inline" | "block";
  /** Offsets in the body of the whole directive (`!` to the closing backtick; the fence lines included). */
  start: number;
  end: number;
  command: string;
}

/** Characters of one directive's output kept in the body. */
export const PRE_RENDER_MAX_CHARS = 4_000;
/** Seconds one directive may run. */
export const PRE_RENDER_TIMEOUT_SECONDS = 30;
/** Most directives run per load (the rest are replaced by a note). */
export const PRE_RENDER_MAX_DIRECTIVES = 20;

const FENCE = /^(\s{0,3})(`{3,}|~{3,})(.*)$/;
const INLINE = /(^|[\s(:>*_-])!`([^`\n]+)`/g;

/**
 * The directives of `body`, in order: ```` ```! ```` blocks (the fence's info string is exactly `!`), and
 * `` !`command` `` outside other fenced code blocks (where it is shown, not meant to run).
 */
export function findShellDirectives(body: string): ShellDirective[] {
  const found: ShellDirective[] = [];
  let offset = 0;
  let fence: { marker: string; start: number; bang: boolean; contentStart: number } | undefined;
  for (const line of body.split("\n")) {
    const lineEnd = offset + line.length;
    const match = FENCE.exec(line);
    if (fence === undefined && match !== null) {
      const marker = match[2] as string;
      fence = { marker, start: offset, bang: (match[3] ?? "").trim() === "!", contentStart: lineEnd + 1 };
    } else if (
      fence !== undefined &&
      match !== null &&
      (match[2] as string).startsWith(fence.marker) &&
      (match[3] ?? "").trim() === ""
    ) {
      if (fence.bang) {
        const command = body.slice(fence.contentStart, Math.max(fence.contentStart, offset - 1));
        if (command.trim() !== "") found.push({ kind: "block", start: fence.start, end: lineEnd, command });
      }
      fence = undefined;
    } else if (fence === undefined) {
      for (const m of line.matchAll(INLINE)) {
        const start = offset + (m.index ?? 0) + (m[1] as string).length;
        found.push({
          kind: "inline",
          start,
          end: offset + (m.index ?? 0) + m[0].length,
          command: m[2] as string,
        });
      }
    }
    offset = lineEnd + 1;
  }
  return found;
}

/** Options of {@link createShellPreRender}. */
export interface ShellPreRenderOptions {
  /** Where commands run (the session's workspace and executor, limits, secrets); undefined: no executor. */
  run: RunSetup | undefined;
  /** Which skills may run their directives. */
  trust: SkillTrust;
  /**
   * For a skill with no folder on disk (served by an MCP server): a local copy of its verified files to run
   * the directives in, or a reason they do not run. Unset: such a skill's directives never run.
   */
  stage?: (
    record: SkillRecord,
  ) => Promise<{ ok: true; record: SkillRecord } | { ok: false; message: string }>;
  /**
   * The project directory directives run in (Claude Code runs them where the session runs), mounted
   * read-only for executors that mount. Unset: the skill's directory in the workspace.
   */
  projectDir?: string;
}

/**
 * The session's `preRender`: the body with each directive replaced by its output (trusted skill, an
 * executor) or by a note saying why it did not run. A body without directives is returned as it is.
 */
export function createShellPreRender(
  options: ShellPreRenderOptions,
): (record: SkillRecord, body: string) => Promise<string> {
  return async (record, body) => {
    const directives = findShellDirectives(body);
    if (directives.length === 0) return body;
    return inSpan(
      `skill_pre_render ${record.name}`,
      {
        attributes: () => ({
          ...skillSpanAttributes(record.name, record),
          "skillrt.pre_render.commands": directives.length,
        }),
      },
      () => preRender(record, body, directives),
    );
  };

  async function preRender(record: SkillRecord, body: string, directives: ShellDirective[]): Promise<string> {
    let note: string | undefined;
    let local = record;
    if (!(await ensureTrusted(options.trust, record, "pre-render")))
      note = `not run: this skill is not trusted; the user can trust it with \`${options.trust.howToTrust(record)}\``;
    else if (options.run === undefined) note = "not run: command execution is off in this session";
    else if (record.origin.kind === "mcp") {
      // A served skill's directory is a URI: it never names a local folder; only a verified copy runs.
      const staged =
        options.stage === undefined
          ? { ok: false as const, message: "this skill has no folder on disk" }
          : await options.stage(record);
      if (staged.ok) local = staged.record;
      else note = `not run: ${staged.message}`;
    } else note = await unverifiedBody(record, body, options.trust, options.run);
    let out = "";
    let at = 0;
    for (const [index, directive] of directives.entries()) {
      out += body.slice(at, directive.start);
      at = directive.end;
      const shown = oneLine(directive.command);
      if (note !== undefined) out += `[\`${shown}\` ${note}]`;
      else if (index >= PRE_RENDER_MAX_DIRECTIVES)
        out += `[\`${shown}\` not run: more than ${PRE_RENDER_MAX_DIRECTIVES} commands in one skill]`;
      else
        out += await runDirective(
          local,
          directive,
          options.run as RunSetup,
          options.trust,
          options.projectDir,
        );
    }
    return out + body.slice(at);
  }
}

/**
 * Why the directives of a pinned skill's `body` may not run: the checked copy of the skill cannot be
 * staged (it changed since it was trusted), or its skill file does not hold `body` (the body was read
 * from a file changed after the check). `undefined` when they may run, or the skill is not pinned.
 */
async function unverifiedBody(
  record: SkillRecord,
  body: string,
  trust: SkillTrust,
  run: RunSetup,
): Promise<string | undefined> {
  const pin = trust.pinOf?.(record);
  if (pin === undefined) return undefined;
  const changed = `not run: this skill changed since it was trusted; the user can review it and trust it again with \`${pin.howToTrust}\``;
  try {
    const staged = await run.environment.workspace.stageSkill(record, { verify: pinnedStaging(pin, record) });
    const read = (name: string) => readFile(path.join(staged.viewDir, name), "utf8");
    const checked = (await read("SKILL.md").catch(() => read("skill.md"))).replace(/\r\n/g, "\n");
    // The body is what follows the frontmatter: the checked file must end with it.
    return checked.trimEnd().endsWith(body.replace(/\r\n/g, "\n").trim()) ? undefined : changed;
  } catch (error) {
    if (SkillChangedError.isInstance(error)) return changed;
    return `not run: ${(error as Error).message}`;
  }
}

async function runDirective(
  record: SkillRecord,
  directive: ShellDirective,
  run: RunSetup,
  trust: SkillTrust,
  projectDir: string | undefined,
): Promise<string> {
  // A remote sandbox gets its files copied in: a whole project is not sent there.
  const inProject = projectDir !== undefined && run.environment.executor.kind !== "sandbox-session";
  const result = await runSkillCommand(
    { name: record.name, command: directive.command, timeout: PRE_RENDER_TIMEOUT_SECONDS },
    {
      environment: run.environment,
      policy: { ...run.policy, maxOutputBytes: PRE_RENDER_MAX_CHARS * 4 },
      lookup: { getSkill: (name) => (name === record.name ? record : undefined), isLoaded: () => true },
      trust,
      ...(inProject ? { hostCwd: projectDir } : {}),
    },
  );
  const shown = oneLine(directive.command);
  if (result.status === "refused") return `[\`${shown}\` not run: ${result.message}]`;
  const output = cap(result.stdout.replace(/\n+$/, ""));
  if (result.timedOut)
    return `[\`${shown}\` timed out after ${PRE_RENDER_TIMEOUT_SECONDS} s]${output === "" ? "" : `\n${output}`}`;
  if (result.exitCode !== 0) {
    const stderr = cap(result.stderr.replace(/\n+$/, ""));
    return `[\`${shown}\` failed with exit code ${result.exitCode}${stderr === "" ? "" : `: ${stderr}`}]`;
  }
  return output;
}

function cap(text: string): string {
  return text.length <= PRE_RENDER_MAX_CHARS
    ? text
    : `${text.slice(0, PRE_RENDER_MAX_CHARS)}… [output truncated]`;
}

function oneLine(command: string): string {
  const line = command.trim().replace(/\s*\n\s*/g, "; ");
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`;
}
