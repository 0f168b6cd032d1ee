/**
 * The session as the MCP server's tools see it. Two differences from the engine, both because an MCP
 * server cannot see the client's conversation:
 *
 * - a load of a skill that is already loaded reloads it, so the client always receives the full
 *   instructions (a new chat in the same client would otherwise get "already loaded");
 * - every failed operation and every executor run is recorded on the current call's
 *   {@link CallOutcome}, so the server can mark failures as MCP error results (`isError`) while the
 *   result text stays exactly what the engine's tools return.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { SkillSession } from "../context/skill-session.js";
import type { Executor } from "../exec/executor.js";

/** What happened during one MCP request. */
export interface CallOutcome {
  /** A session operation answered with a failure (unknown skill, missing file, refused path, …). */
  failed: boolean;
  /** The executor ran a command (a `skill_run` or script tool that was not refused). */
  ran: boolean;
}

/** Tracks the {@link CallOutcome} of concurrent requests (one per async context). */
export interface CallScope {
  /** Runs `fn` with a fresh outcome and returns both. */
  run<T>(fn: () => Promise<T>): Promise<{ value: T; outcome: CallOutcome }>;
  /** Marks the current request as failed (no-op outside {@link CallScope.run}). */
  fail(): void;
  /** Marks that the current request ran a command. */
  ran(): void;
}

/** Creates a {@link CallScope} backed by `AsyncLocalStorage`. */
export function createCallScope(): CallScope {
  const storage = new AsyncLocalStorage<CallOutcome>();
  return {
    async run(fn) {
      const outcome: CallOutcome = { failed: false, ran: false };
      const value = await storage.run(outcome, fn);
      return { value, outcome };
    },
    fail() {
      const outcome = storage.getStore();
      if (outcome !== undefined) outcome.failed = true;
    },
    ran() {
      const outcome = storage.getStore();
      if (outcome !== undefined) outcome.ran = true;
    },
  };
}

/** `session` with reload-on-load and failure tracking (see the module comment). Shares its state. */
export function mcpSessionView(session: SkillSession, scope: CallScope): SkillSession {
  const check = <R extends { ok: boolean }>(result: R): R => {
    if (!result.ok) scope.fail();
    return result;
  };
  return {
    ...session,
    async load(name, options) {
      if (session.loadedSkill(name) !== undefined) session.unload(name);
      return check(await session.load(name, options));
    },
    selectDocs: async (name, docs, mode, options) =>
      check(await session.selectDocs(name, docs, mode, options)),
    listDocs: async (name) => check(await session.listDocs(name)),
    listFiles: async (name) => check(await session.listFiles(name)),
    readFile: async (name, path, options) => check(await session.readFile(name, path, options)),
    unload: (name) => check(session.unload(name)),
    notFound(name) {
      scope.fail();
      return session.notFound(name);
    },
  };
}

/** `executor` reporting each run to `scope` (a refused `skill_run` never reaches the executor). */
export function observedExecutor(executor: Executor, scope: CallScope): Executor {
  return {
    kind: executor.kind,
    run(request) {
      scope.ran();
      return executor.run(request);
    },
  };
}
