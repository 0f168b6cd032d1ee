/** Chooses and builds an executor: `auto` prefers the bubblewrap sandbox and falls back to `local`. */
import {
  type ContainerExecutorOptions,
  createContainerExecutor,
  probeContainerEngine,
} from "./container-executor.js";
import type { ExecRequest, ExecResult, Executor, ExecutorKind } from "./executor.js";
import { createLocalExecutor } from "./local-executor.js";
import { createSandboxExecutor, probeSandbox, type SandboxExecutorOptions } from "./sandbox-executor.js";

/** Executor names accepted by configuration and the CLI. */
export type ExecutorChoice = ExecutorKind | "auto";

/** Options of `createExecutor`. */
export interface CreateExecutorOptions {
  /** Default `auto`: `sandbox` when a `bwrap … true` probe succeeds (cached), else `local` with a warning. */
  kind?: ExecutorChoice;
  sandbox?: SandboxExecutorOptions;
  container?: ContainerExecutorOptions;
}

/** An executor plus what choosing it produced. */
export interface ChosenExecutor {
  executor: Executor;
  /** Set when `auto` fell back to `local` (also added once to the first result's `warnings`). */
  warning?: string;
}

function withOneTimeWarning(inner: Executor, warning: string): Executor {
  let pending = true;
  return {
    kind: inner.kind,
    async run(request: ExecRequest): Promise<ExecResult> {
      const result = await inner.run(request);
      if (!pending) return result;
      pending = false;
      return { ...result, warnings: [warning, ...result.warnings] };
    },
  };
}

/**
 * Builds the executor for `kind`. `sandbox` and `container` are returned even when unavailable (their
 * runs then fail with exit -1 and the reason in stderr); only `auto` probes and falls back.
 */
export function createExecutor(options: CreateExecutorOptions = {}): ChosenExecutor {
  const kind = options.kind ?? "auto";
  if (kind === "local") return { executor: createLocalExecutor() };
  if (kind === "sandbox") return { executor: createSandboxExecutor(options.sandbox) };
  if (kind === "container") return { executor: createContainerExecutor(options.container) };
  const probe = probeSandbox(options.sandbox?.bwrapPath, options.sandbox?.uid);
  if (probe.ok) return { executor: createSandboxExecutor(options.sandbox) };
  const warning =
    `bubblewrap sandbox unavailable (${probe.reason ?? "unknown reason"}); commands run as plain local ` +
    "processes without file-system or network isolation. Install it with `apt-get install bubblewrap`.";
  return { executor: withOneTimeWarning(createLocalExecutor(), warning), warning };
}

export { probeContainerEngine, probeSandbox };
