/** The checks `createSkillAgent` makes on its options before it opens anything. */
import { type AgentDefinition, mergeAgents } from "../config/agent-definition.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { SkillAgentOptions } from "./skill-agent.js";

/** Inline tool-source options, which a caller's own `toolSources` replaces. */
const TOOL_SOURCE_OPTIONS = ["toolRegistry", "mcpServers", "toolGating", "approval"] as const;

/** The agents of `options`, checked: an invalid spec is an `invalid-argument` error naming it. */
export function agentDefinitions(options: SkillAgentOptions): Record<string, AgentDefinition> {
  try {
    return mergeAgents({}, options.agents ?? {});
  } catch (error) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `createSkillAgent: an entry of agents is invalid: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}

/** Throws `invalid-argument` without a model or catalog, or with both `toolSources` and inline source options. */
export function checkParts(options: SkillAgentOptions): void {
  const given = options as Partial<SkillAgentOptions> | undefined;
  const missing = (["model", "catalog"] as const).filter((key) => given?.[key] === undefined);
  if (missing.length > 0) {
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        `createSkillAgent needs ${missing.map((m) => `a ${m}`).join(" and ")}: it reads no config, environment ` +
        "or folders of its own. Pass them in (e.g. `catalog: await createCatalog({ roots: ['./skills'] })`), " +
        "or take them from the Node preset: `createSkillAgent(await fromEnvironment())`.",
    });
  }
  const inline = TOOL_SOURCE_OPTIONS.filter((key) => options[key] !== undefined);
  if (options.toolSources !== undefined && inline.length > 0) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `createSkillAgent: give either toolSources or ${inline.join(", ")} (they configure the sources it would open), not both.`,
    });
  }
  // A zero, negative or fractional limit would stop every turn at once (or never, for NaN).
  for (const key of ["maxOutputTokens", "turnTimeoutMs"] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new SkillrtError({
        code: "invalid-argument",
        message: `createSkillAgent: ${key} must be a positive whole number, got ${String(value)}.`,
      });
    }
  }
}
