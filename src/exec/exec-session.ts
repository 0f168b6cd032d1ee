/**
 * Interactive program sessions (trpc-agent-go's `internal/programsession`): a skill command started with
 * its stdin left open, run by `runSkillCommand` exactly as `skill_run` runs one (same workspace, sandbox,
 * limits, environment, secrets and output collection), whose combined stdout and stderr is read in
 * pieces while it runs. Sessions belong to a workspace: {@link closeExecSessions} kills every one (the
 * skill layer does so when its conversation ends). The final result is the run's, once the program exits.
 */
import { PassThrough } from "node:stream";
import { createRedactor } from "./redact.js";
import type { SkillRunConfig } from "./run-config.js";
import { runSkillCommand, type SkillRunRequest, type SkillRunResult } from "./run-skill-command.js";
import type { Workspace } from "./workspace.js";

/** Default seconds before a session's program is killed (trpc's session TTL: 30 minutes). */
export const EXEC_SESSION_TTL_SECONDS = 30 * 60;
/** Most sessions open at once in one workspace. */
export const MAX_EXEC_SESSIONS = 8;
/** Characters of output a session keeps (older output is dropped from the front). */
const MAX_BUFFER_CHARS = 1024 * 1024;
/** Output is taken as complete for a poll once the program has been quiet this long. */
const QUIET_MS = 150;

/** What one poll returns. */
export interface ExecPoll {
  status: "running" | "exited";
  /** New output since `offset` (redacted), at most the asked number of lines. */
  output: string;
  offset: number;
  nextOffset: number;
  /** Set once the program exited. */
  exitCode?: number;
  /** The run's result, once the program exited (a refused run: its message). */
  result?: SkillRunResult;
}

/** A running (or exited, not yet removed) session. */
export interface ExecSession {
  readonly id: string;
  readonly skill: string;
  /** True until the program exited. */
  readonly running: boolean;
  /** Writes to the program's stdin (ignored once it exited). */
  write(text: string): void;
  /** Waits up to `yieldMs` for new output (returning early once it goes quiet or the program exits). */
  poll(options: { yieldMs: number; lines: number }): Promise<ExecPoll>;
  /** Kills the process tree (if running) and removes the session; resolves once it is gone. */
  kill(): Promise<"killed" | "exited">;
}

const registries = new WeakMap<Workspace, Map<string, ExecSession>>();
const started = new WeakMap<Workspace, number>();

function registry(workspace: Workspace): Map<string, ExecSession> {
  let map = registries.get(workspace);
  if (map === undefined) {
    map = new Map();
    registries.set(workspace, map);
  }
  return map;
}

/** The session `id` of `workspace`, if open. */
export function findExecSession(workspace: Workspace, id: string): ExecSession | undefined {
  return registry(workspace).get(id);
}

/** Kills every session of `workspace` and waits until their process trees are gone. */
export async function closeExecSessions(workspace: Workspace): Promise<void> {
  await Promise.all([...registry(workspace).values()].map((s) => s.kill()));
}

/**
 * Starts `request` as a session. Returns an error text (nothing started) when the workspace already has
 * {@link MAX_EXEC_SESSIONS} open sessions.
 */
export function startExecSession(
  request: SkillRunRequest,
  run: SkillRunConfig,
): ExecSession | { error: string } {
  const { environment, policy } = run;
  const sessions = registry(environment.workspace);
  const running = [...sessions.values()].filter((s) => s.running).length;
  if (running >= MAX_EXEC_SESSIONS) {
    return {
      error: `${running} interactive sessions are running (at most ${MAX_EXEC_SESSIONS}); kill one with skill_kill_session first.`,
    };
  }
  // Numbered per workspace (`sess_1`, `sess_2`, …): short for the model, and never reused.
  const n = (started.get(environment.workspace) ?? 0) + 1;
  started.set(environment.workspace, n);
  const id = `sess_${n}`;
  const redactor = createRedactor(Object.values(environment.skillEnv?.[request.name] ?? {}));
  const stdin = new PassThrough();
  if (request.stdin !== undefined && request.stdin !== "") stdin.write(request.stdin);
  const stop = new AbortController();
  let raw = "";
  let dropped = 0;
  let lastOutput = 0;
  let wake: (() => void) | undefined;
  const decoder = new TextDecoder();
  const onOutput = (chunk: Buffer): void => {
    raw += decoder.decode(chunk, { stream: true });
    if (raw.length > MAX_BUFFER_CHARS) {
      dropped += raw.length - MAX_BUFFER_CHARS;
      raw = raw.slice(raw.length - MAX_BUFFER_CHARS);
    }
    lastOutput = Date.now();
    wake?.();
  };
  let result: SkillRunResult | undefined;
  const abortSignal =
    environment.abortSignal === undefined
      ? stop.signal
      : AbortSignal.any([environment.abortSignal, stop.signal]);
  const done = runSkillCommand(
    {
      ...request,
      stdin: undefined,
      timeout: request.timeout ?? EXEC_SESSION_TTL_SECONDS,
      interactive: { stdin, onOutput },
    },
    {
      ...run,
      environment: { ...environment, abortSignal },
      policy: {
        ...policy,
        maxTimeoutSeconds: Math.max(policy?.maxTimeoutSeconds ?? 0, EXEC_SESSION_TTL_SECONDS),
      },
    },
  ).then((r) => {
    result = r;
    stdin.destroy();
    wake?.();
    return r;
  });

  // While the program runs, the tail a secret could still be completing in is held back from polls.
  const visible = (): string => {
    const held = result === undefined ? Math.min(raw.length, redactor.maxFormLength) : 0;
    return redactor.redact(raw.slice(0, raw.length - held));
  };
  let offset = 0;
  const session: ExecSession = {
    id,
    skill: request.name,
    get running() {
      return result === undefined;
    },
    write(text) {
      if (result === undefined && !stdin.destroyed) stdin.write(text);
    },
    async poll({ yieldMs, lines }) {
      const deadline = Date.now() + Math.max(0, yieldMs);
      while (result === undefined && Date.now() < deadline) {
        const unread = visible().length > offset - dropped;
        const quiet = unread && Date.now() - lastOutput >= QUIET_MS;
        if (quiet) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(QUIET_MS, Math.max(1, deadline - Date.now())));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
      const text = visible();
      const start = Math.max(0, offset - dropped);
      let output = text.slice(start);
      const parts = output.split("\n");
      if (parts.length > lines + 1) output = `${parts.slice(0, lines).join("\n")}\n`;
      const from = offset;
      offset += output.length;
      return {
        status: result === undefined ? "running" : "exited",
        output,
        offset: from,
        nextOffset: offset,
        ...(result === undefined ? {} : { exitCode: result.status === "ran" ? result.exitCode : -1, result }),
      };
    },
    async kill() {
      const running = result === undefined;
      stop.abort();
      await done;
      sessions.delete(id);
      return running ? "killed" : "exited";
    },
  };
  sessions.set(id, session);
  return session;
}
