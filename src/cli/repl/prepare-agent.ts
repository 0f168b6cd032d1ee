/** Validates the shared `ask`/`chat` flags and opens the conversation, writing errors for people. */

import type { UntrustedRoot } from "../../catalog/recorded-trust.js";
import { PROFILE_NAMES as PROFILES } from "../../context/profile-name.js";
import type { Placement } from "../../context/session-options.js";
import { createSkillAgent } from "../../engine/create-skill-agent.js";
import type { SkillAgent } from "../../engine/skill-agent.js";
import { SkillrtError } from "../../errors/skillrt-error.js";
import type { ExecutorChoice } from "../../exec/create-executor.js";
import type { OnToolApproval } from "../../tools/tool-approval.js";
import type { CliIo } from "../command.js";
import { createStyle } from "../create-style.js";
import { usageError } from "../define-command.js";
import { fromEnvironment, type NodeAgentParts } from "../from-environment.js";
import { intFlag } from "../int-flag.js";
import { type OtelExport, otelEnabled, startOtelExport } from "../start-otel-export.js";
import type { AgentOptionValues } from "./agent-options.js";

/**
 * The conversation of `ask`/`chat` and the parts it was composed from (the catalog, the store, the tool
 * sources, the model's configuration), which the commands read directly. The agent owns the store and
 * tool sources: `agent.close()` closes them.
 */
export interface PreparedAgent {
  agent: SkillAgent;
  parts: NodeAgentParts;
  /** The span export of `--otel`, when on: shut it down after `agent.close()` to send what is left. */
  otel?: OtelExport;
}

const EXECUTORS: readonly ExecutorChoice[] = ["auto", "sandbox", "local", "container"];

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** `--model-timeout S`: both model deadlines, in ms. */
function modelTimeoutFlags(seconds: number | undefined) {
  return seconds === undefined ? {} : { firstByteTimeoutMs: seconds * 1000, idleTimeoutMs: seconds * 1000 };
}

/**
 * Checks the flags (exit 2 with a usage error when wrong), then opens the agent (exit 1 with the
 * message for a broken configuration or store). Returns the agent or an exit code.
 */
export async function prepareAgent(
  command: string,
  values: AgentOptionValues,
  io: CliIo,
  onApproval?: OnToolApproval,
  askTrust?: (root: UntrustedRoot) => Promise<boolean>,
  beforeAgent?: (parts: NodeAgentParts) => Promise<void>,
): Promise<PreparedAgent | number> {
  const placement = values.placement ?? "history";
  if (placement !== "history" && placement !== "system") {
    return usageError(io, command, `--placement must be history or system, got '${placement}'`);
  }
  const profile = values.profile ?? "skillrt";
  if (!isOneOf(PROFILES, profile))
    return usageError(io, command, `--profile must be one of ${PROFILES.join(", ")}`);
  const executorFlag = values.executor;
  if (executorFlag !== undefined && !isOneOf(EXECUTORS, executorFlag))
    return usageError(io, command, `--executor must be one of ${EXECUTORS.join(", ")}`);
  const toolGating = values["tool-gating"];
  if (
    toolGating !== undefined &&
    toolGating !== "open" &&
    toolGating !== "skill" &&
    toolGating !== "tool-list"
  )
    return usageError(io, command, `--tool-gating must be open, skill or tool-list, got '${toolGating}'`);
  const loadMode = values["load-mode"];
  if (loadMode !== undefined && loadMode !== "session" && loadMode !== "turn" && loadMode !== "once")
    return usageError(io, command, `--load-mode must be session, turn or once, got '${loadMode}'`);
  const skillTools = values["skill-tools"]
    ?.flatMap((list) => list.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (values["skill-tools"] !== undefined && skillTools?.length === 0)
    return usageError(
      io,
      command,
      "--skill-tools expects tool names, e.g. --skill-tools skill_load,skill_run",
    );
  const ints: Record<string, number | undefined> = {};
  for (const name of [
    "catalog-budget",
    "context-window",
    "max-steps",
    "model-timeout",
    "turn-timeout",
    "max-overview-skills",
    "max-loaded-skills",
  ] as const) {
    const parsed = intFlag(values[name], name);
    if (typeof parsed === "object") return usageError(io, command, parsed.error);
    ints[name] = parsed;
  }
  const seconds: Record<string, number | undefined> = {};
  for (const name of ["lock-wait", "save-retry"] as const) {
    const value = values[name];
    if (value === undefined) continue;
    const n = Number(value);
    // Bounded: a day is far past any real wait, and keeps the ms value a safe timer delay.
    if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 86_400)
      return usageError(io, command, `--${name} expects seconds from 0 to 86400, got '${value}'`);
    seconds[name] = n;
  }
  const style = createStyle(io.stderr, io.env);
  const warn = (message: string) => io.stderr.write(`skillrt: warning: ${message}\n`);
  let parts: NodeAgentParts | undefined;
  // The SDK and exporter load only when asked for (startOtelExport imports them).
  const otel = otelEnabled(values.otel, io.env) ? await startOtelExport(io.env, warn) : undefined;
  try {
    parts = await fromEnvironment({
      cwd: io.cwd,
      env: io.env,
      roots: values.root,
      refresh: values.refresh === true,
      store: values.store,
      model: {
        provider: values.provider,
        model: values.model,
        baseURL: values["base-url"],
        contextWindow: ints["context-window"],
        ...modelTimeoutFlags(ints["model-timeout"]),
        ...(ints["turn-timeout"] === undefined ? {} : { turnTimeoutMs: ints["turn-timeout"] * 1000 }),
      },
      onRetry: (notice) => {
        const why = notice.status === undefined ? "a network error" : `HTTP ${notice.status}`;
        io.stderr.write(
          `${style.dim(`provider answered ${why}; retrying in ${(notice.delayMs / 1000).toFixed(1)} s (attempt ${notice.attempt + 1})`)}\n`,
        );
      },
      executor: executorFlag as ExecutorChoice | undefined,
      session: {
        ...values,
        loadMode,
        maxOverviewSkills: ints["max-overview-skills"],
        maxLoadedSkills: ints["max-loaded-skills"],
        skillTools,
        noPreamble: values["no-preamble"],
      },
      tools: {
        ...(toolGating === undefined ? {} : { toolGating }),
        approval: { onApproval: values.yes === true ? () => "yes" : (onApproval ?? (() => "no")) },
      },
      onWarning: warn,
      ...(values.trust === true ? { trust: true } : {}),
      ...(askTrust === undefined ? {} : { askTrust }),
    });
    const catalogBudget = ints["catalog-budget"];
    const maxSteps = ints["max-steps"];
    try {
      await beforeAgent?.(parts);
    } catch (error) {
      await parts.store?.close().catch(() => undefined);
      throw error;
    }
    // The agent takes over the store and the tool sources (closeStore, closeToolSources).
    const agent = await createSkillAgent({
      ...parts,
      ...(values.session === undefined ? {} : { sessionId: values.session }),
      placement: placement as Placement,
      profile,
      ...(catalogBudget === undefined ? {} : { catalogBudget }),
      ...(maxSteps === undefined ? {} : { maxSteps }),
      ...msOf("lockTimeoutMs", seconds["lock-wait"]),
      ...msOf("saveRetryMs", seconds["save-retry"]),
      ...(otel === undefined ? {} : { tracerProvider: otel.tracerProvider }),
    });
    return { agent, parts, ...(otel === undefined ? {} : { otel }) };
  } catch (error) {
    await otel?.shutdown();
    if (SkillrtError.isInstance(error)) {
      io.stderr.write(`skillrt ${command}: ${error.message}\n`);
      // An invalid config file is the caller's to fix, like a bad flag (exit 2), in every command.
      return error.code === "config-invalid" ? 2 : 1;
    }
    throw error;
  }
}

/** `{ [key]: seconds in ms }`, or nothing when the flag was not given. */
function msOf<K extends string>(key: K, seconds: number | undefined): { [P in K]?: number } {
  return (seconds === undefined ? {} : { [key]: Math.round(seconds * 1000) }) as { [P in K]?: number };
}
