/**
 * trpc-agent-go's interactive tools (`tool/skill/exec.go`): `skill_exec` starts a skill command with
 * `skill_run`'s inputs and semantics and answers with a session id and its first output; `skill_write_stdin`
 * writes to it (`submit` adds a newline), `skill_poll_session` reads more, `skill_kill_session` ends it.
 * Answers are trpc's objects: `{status, session_id, output, offset, next_offset, exit_code?, interaction?,
 * result?}` (`interaction` when the last line looks like a prompt or a numbered choice; `result` is the
 * `skill_run` result once the program exited) and `{ok, session_id, status}`. Defaults as trpc's: first
 * output waited for up to 1000 ms, later output 400 ms, 40 lines per answer.
 */
import { type Tool, tool } from "ai";
import { z } from "zod";
import { type ExecPoll, findExecSession, startExecSession } from "../../exec/exec-session.js";
import type { ProfileRun } from "../profile-types.js";
import { type SkillToolResult, toolFailure, toolSuccess } from "../skill-tool-result.js";
import {
  finishTrpcRun,
  type PreparedTrpcRun,
  prepareTrpcRun,
  type TrpcRunInput,
  trpcRunInput,
} from "./trpc-skill-run.js";

const INITIAL_YIELD_MS = 1000;
const IO_YIELD_MS = 400;
const POLL_LINES = 40;

const yieldMs = z
  .number()
  .int()
  .min(0)
  .max(60_000)
  .optional()
  .describe("How long to wait for new output (ms).");
const pollLines = z.number().int().positive().optional().describe("Maximum number of new lines to return.");
const sessionId = z.string().describe("Session id from skill_exec");

/** trpc's `detectInteraction`: does the last line ask for input, or offer numbered choices? */
export function detectInteraction(
  output: string,
): { needs_input: true; kind: "prompt" | "selection"; hint: string } | undefined {
  const lines = output.split("\n").map((l) => l.trim());
  const hint = lines.filter((l) => l !== "").at(-1) ?? "";
  if (hint === "") return undefined;
  const lower = hint.toLowerCase();
  const numbered = lines.filter((l) => /^[0-9][.)]/.test(l)).length >= 2;
  if (/enter the number|choose a number|select a number/.test(lower) || numbered)
    return { needs_input: true, kind: "selection", hint };
  if (
    hint.endsWith(":") ||
    hint.endsWith("?") ||
    lower.includes("press enter") ||
    lower.includes("type your")
  )
    return { needs_input: true, kind: "prompt", hint };
  return undefined;
}

/** The four tools over the session's run setup. */
export function trpcExecTools(run: ProfileRun): Record<string, Tool> {
  const { setup } = run;
  // What each session's final result needs (its trpc input and prepared request).
  const started = new Map<string, { input: TrpcRunInput; prepared: PreparedTrpcRun }>();

  const answer = async (id: string, poll: ExecPoll): Promise<SkillToolResult> => {
    const origin = started.get(id);
    let result: unknown;
    if (poll.result !== undefined && origin !== undefined) {
      if (poll.result.status === "refused") result = { error: poll.result.message };
      else {
        origin.prepared.recordPins(poll.result);
        result = await finishTrpcRun(poll.result, origin.input, origin.prepared, setup);
      }
    }
    const interaction = poll.status === "running" ? detectInteraction(poll.output) : undefined;
    return toolSuccess(
      JSON.stringify({
        status: poll.status,
        session_id: id,
        ...(poll.output === "" ? {} : { output: poll.output }),
        offset: poll.offset,
        next_offset: poll.nextOffset,
        ...(poll.exitCode === undefined ? {} : { exit_code: poll.exitCode }),
        ...(interaction === undefined ? {} : { interaction }),
        ...(result === undefined ? {} : { result }),
      }),
    );
  };
  const session = (id: string) => findExecSession(setup.environment.workspace, id);

  return {
    skill_exec: tool({
      description:
        "Start an interactive command inside a skill workspace. Use it when a skill command may prompt for stdin, selection, or TTY interaction. It shares the same workspace, inputs, outputs, artifact, stdin, and editor_text semantics as skill_run. When status is running, inspect output and interaction, then use skill_write_stdin or skill_poll_session; when status is exited, result carries the skill_run result. Kill sessions you no longer need with skill_kill_session.",
      inputSchema: trpcRunInput().extend({
        tty: z
          .boolean()
          .optional()
          .describe("Allocate a TTY when needed (not available: the program reads a pipe)."),
        yield_ms: yieldMs,
        poll_lines: pollLines,
      }),
      execute: async ({ tty, yield_ms, poll_lines, ...input }): Promise<SkillToolResult> => {
        const prepared = await prepareTrpcRun(input, setup);
        if (typeof prepared === "string") return toolFailure(prepared);
        if (tty === true)
          prepared.warnings.push("tty is not available; the program's stdin and stdout are pipes");
        const context = run.context();
        const { kind } = context.environment.executor;
        if (!["sandbox", "local", "container"].includes(kind))
          return toolFailure(
            `skill_exec needs the sandbox, local or container executor (this one is ${kind}).`,
          );
        const started_ = startExecSession(prepared.request, { ...context, skillLinks: true });
        if ("error" in started_) return toolFailure(started_.error);
        started.set(started_.id, { input, prepared });
        const poll = await started_.poll({
          yieldMs: yield_ms ?? INITIAL_YIELD_MS,
          lines: poll_lines ?? POLL_LINES,
        });
        if (poll.result?.status === "refused") {
          await started_.kill();
          return toolFailure(poll.result.message);
        }
        return answer(started_.id, poll);
      },
    }),
    skill_write_stdin: tool({
      description:
        "Write to a running skill_exec session. Set submit=true to append a newline. When chars is empty and submit is false, it acts like a lightweight poll.",
      inputSchema: z.strictObject({
        session_id: sessionId,
        chars: z.string().optional().describe("Stdin text to write"),
        submit: z.boolean().optional().describe("Append a newline after chars"),
        yield_ms: yieldMs,
        poll_lines: pollLines,
      }),
      execute: async (input): Promise<SkillToolResult> => {
        const s = session(input.session_id);
        if (s === undefined) return toolFailure(`unknown session_id: ${input.session_id}`);
        const text = `${input.chars ?? ""}${input.submit === true ? "\n" : ""}`;
        if (text !== "") s.write(text);
        return answer(
          s.id,
          await s.poll({ yieldMs: input.yield_ms ?? IO_YIELD_MS, lines: input.poll_lines ?? POLL_LINES }),
        );
      },
    }),
    skill_poll_session: tool({
      description:
        "Poll a running or recently exited skill_exec session for additional output or final results.",
      inputSchema: z.strictObject({ session_id: sessionId, yield_ms: yieldMs, poll_lines: pollLines }),
      execute: async (input): Promise<SkillToolResult> => {
        const s = session(input.session_id);
        if (s === undefined) return toolFailure(`unknown session_id: ${input.session_id}`);
        return answer(
          s.id,
          await s.poll({ yieldMs: input.yield_ms ?? IO_YIELD_MS, lines: input.poll_lines ?? POLL_LINES }),
        );
      },
    }),
    skill_kill_session: tool({
      description: "Terminate and remove a skill_exec session.",
      inputSchema: z.strictObject({ session_id: sessionId }),
      execute: async (input): Promise<SkillToolResult> => {
        if (input.session_id.trim() === "") return toolFailure("session_id is required");
        const s = session(input.session_id);
        if (s === undefined) return toolFailure(`unknown session_id: ${input.session_id}`);
        const status = await s.kill();
        started.delete(s.id);
        return toolSuccess(JSON.stringify({ ok: true, session_id: s.id, status }));
      },
    }),
  };
}
