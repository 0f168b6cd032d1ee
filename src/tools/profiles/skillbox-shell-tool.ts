/**
 * AgentScope's `execute_shell_command { command, timeout? }` (`ShellCommandTool`, SkillBox's
 * `codeExecution().withShell()`), run in the session's workspace sandbox. As SkillBox configures it, only
 * `python`, `python3`, `node` and `nodejs` may run and `&`, `|`, `;` are refused; a refused command answers
 * return code -1 with a `SecurityError` in stderr. The answer is
 * `<returncode>N</returncode><stdout>…</stdout><stderr>…</stderr>` (streams without their final newline,
 * as ShellCommandTool reads them line by line); the default timeout is 300 s.
 *
 * The command runs for one skill: the one whose `<files-root>` (its directory, as the catalog shows it)
 * the command names, else the most recently loaded one. Its `<files-root>` is rewritten to where the
 * sandbox sees the skill (read-only); the working directory is the workspace's `work/`.
 */
import { tool } from "ai";
import { z } from "zod";
import type { SkillSession } from "../../context/skill-session.js";
import type { ProfileRun } from "../profile-types.js";
import { type SkillToolResult, toolSuccess } from "../skill-tool-result.js";

/** SkillBox's default allowlist. */
export const SKILLBOX_SHELL_ALLOWLIST = ["python", "python3", "node", "nodejs"] as const;

const DEFAULT_TIMEOUT_SECONDS = 300;

/** `<returncode>N</returncode><stdout>…</stdout><stderr>…</stderr>`. */
export function shellResult(code: number, stdout: string, stderr: string): string {
  return `<returncode>${code}</returncode><stdout>${stdout}</stdout><stderr>${stderr}</stderr>`;
}

/** Why SkillBox refuses `command`, or undefined when it may run. */
export function skillboxShellRefusal(command: string): string | undefined {
  if (/[&|;]/.test(command))
    return "SecurityError: Command contains a forbidden operator ('&', '|' or ';'); run one program per call.";
  const program = command.trim().split(/\s+/)[0] ?? "";
  const base = program.split("/").at(-1) ?? program;
  if (!(SKILLBOX_SHELL_ALLOWLIST as readonly string[]).includes(base))
    return `SecurityError: Command '${base}' is not in the allowed list: ${SKILLBOX_SHELL_ALLOWLIST.join(", ")}.`;
  return undefined;
}

const trimFinalNewline = (text: string): string => text.replace(/\r?\n$/, "");

/** The `execute_shell_command` tool over `run`. */
export function skillboxShellTool(session: SkillSession, run: ProfileRun) {
  return tool({
    description:
      "Execute given command and return the return code, standard output and error within <returncode></returncode>, <stdout></stdout> and <stderr></stderr> tags.",
    inputSchema: z.object({
      command: z.string().describe("The shell command to execute"),
      timeout: z
        .number()
        .int()
        .optional()
        .describe("The maximum time (in seconds) allowed for the command to run"),
    }),
    execute: async (input, { abortSignal }): Promise<SkillToolResult> => {
      const refusal = skillboxShellRefusal(input.command);
      if (refusal !== undefined) return toolSuccess(shellResult(-1, "", refusal));
      const named = session
        .visibleSkills()
        .filter((r) => r.dir.startsWith("/") && input.command.includes(r.dir))
        .sort((a, b) => b.dir.length - a.dir.length)[0];
      const name = named?.name ?? session.loadedSkills().at(-1);
      if (name === undefined)
        return toolSuccess(
          shellResult(-1, "", "Error: no skill to run in: load one with load_skill_through_path first."),
        );
      const command =
        named === undefined ? input.command : input.command.replaceAll(named.dir, run.viewDir(named.name));
      const timeout =
        input.timeout !== undefined && input.timeout > 0 ? input.timeout : DEFAULT_TIMEOUT_SECONDS;
      const result = await run.execute({ name, command, cwd: run.workDir, timeout }, abortSignal);
      if (result.status === "refused") return toolSuccess(shellResult(-1, "", `Error: ${result.message}`));
      if (result.timedOut) {
        const message = `TimeoutError: The command execution exceeded the timeout of ${timeout} seconds.`;
        const stderr = trimFinalNewline(result.stderr);
        return toolSuccess(
          shellResult(-1, trimFinalNewline(result.stdout), stderr === "" ? message : `${stderr}\n${message}`),
        );
      }
      return toolSuccess(
        shellResult(result.exitCode, trimFinalNewline(result.stdout), trimFinalNewline(result.stderr)),
      );
    },
  });
}
