/** Validates the shared `ask`/`chat` flags and opens the conversation, writing errors for people. */

import { PROFILE_NAMES as PROFILES } from "../../context/profile-name.js";
import type { Placement } from "../../context/session-options.js";
import { createSkillAgent } from "../../engine/create-skill-agent.js";
import { autoSelectModeFrom, maxActiveFrom } from "../../engine/select-skills.js";
import type { SkillAgent } from "../../engine/skill-agent.js";
import { SkillrtError } from "../../errors/skillrt-error.js";
import type { ExecutorChoice } from "../../exec/create-executor.js";
import type { SessionStore } from "../../store/session-store.js";
import type { OnToolApproval } from "../../tools/tool-approval.js";
import { cliRoots } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import { createStyle } from "../create-style.js";
import { usageError } from "../define-command.js";
import { intFlag } from "../int-flag.js";
import { cliExecutorChoice, cliRunSettings, cliSessionSettings, loadCliConfig } from "../load-cli-config.js";
import { openCliStore } from "../open-cli-store.js";
import type { AgentOptionValues } from "./agent-options.js";

const EXECUTORS: readonly ExecutorChoice[] = ["auto", "sandbox", "local", "container"];

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** The selection pre-pass the environment asks for (`SKILLS_AUTO_SELECT`, `SKILLS_MAX_ACTIVE`). */
function selectFromEnv(env: Record<string, string | undefined>) {
  const mode = autoSelectModeFrom(env["SKILLS_AUTO_SELECT"]);
  const maxActive = maxActiveFrom(env["SKILLS_MAX_ACTIVE"]);
  // The cap holds with the pre-pass off too (it caps the model's loads).
  if (mode === "off" && maxActive === undefined) return {};
  return { select: { mode, ...(maxActive === undefined ? {} : { maxActive }) } };
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
): Promise<SkillAgent | number> {
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
  if (toolGating !== undefined && toolGating !== "open" && toolGating !== "skill")
    return usageError(io, command, `--tool-gating must be open or skill, got '${toolGating}'`);
  const ints: Record<string, number | undefined> = {};
  for (const name of ["catalog-budget", "context-window", "max-steps", "model-timeout"] as const) {
    const parsed = intFlag(values[name], name);
    if (typeof parsed === "object") return usageError(io, command, parsed.error);
    ints[name] = parsed;
  }
  const style = createStyle(io.stderr, io.env);
  let store: SessionStore | undefined;
  try {
    const config = await loadCliConfig({
      cwd: io.cwd,
      env: io.env,
      warn: (message) => io.stderr.write(`skillrt: warning: ${message}\n`),
    });
    const executor = cliExecutorChoice(config, executorFlag);
    store = openCliStore(values.store, io.env, config.file, io.cwd);
    const catalogBudget = ints["catalog-budget"];
    const maxSteps = ints["max-steps"];
    const agent = await createSkillAgent({
      cwd: io.cwd,
      env: io.env,
      store,
      config: config.file,
      ...cliSessionSettings(config, values),
      run: cliRunSettings(config, { cwd: io.cwd, defaultHostDirs: [io.cwd] }),
      skills: await cliRoots(values.root, io, values.refresh === true),
      ...(values.session === undefined ? {} : { sessionId: values.session }),
      placement: placement as Placement,
      profile,
      executor,
      ...(catalogBudget === undefined ? {} : { catalogBudget }),
      ...(maxSteps === undefined ? {} : { maxSteps }),
      ...selectFromEnv(io.env),
      ...(toolGating === undefined ? {} : { toolGating }),
      approval: { onApproval: values.yes === true ? () => "yes" : (onApproval ?? (() => "no")) },
      onWarning: (message) => io.stderr.write(`skillrt: warning: ${message}\n`),
      modelOptions: {
        provider: values.provider,
        model: values.model,
        baseURL: values["base-url"],
        contextWindow: ints["context-window"],
        ...modelTimeoutFlags(ints["model-timeout"]),
      },
      onRetry: (notice) => {
        const why = notice.status === undefined ? "a network error" : `HTTP ${notice.status}`;
        io.stderr.write(
          `${style.dim(`provider answered ${why}; retrying in ${(notice.delayMs / 1000).toFixed(1)} s (attempt ${notice.attempt + 1})`)}\n`,
        );
      },
    });
    // The agent leaves a store it was given open: close it with the agent.
    const opened = store;
    const closeAgent = agent.close.bind(agent);
    agent.close = async () => {
      await closeAgent();
      await opened.close();
    };
    return agent;
  } catch (error) {
    await store?.close();
    if (SkillrtError.isInstance(error)) {
      io.stderr.write(`skillrt ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
