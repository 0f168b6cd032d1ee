/**
 * Skills that run in their own context: `context: fork` (Claude Code), and `type: agent` under the
 * aworld profile (AWorld's agent skills). Loading one — by the model's load tool or by `/skill NAME args` —
 * does not put its body in the conversation: a child agent gets the body (arguments substituted) as its
 * task, in the agent its `agent:` names (the default general agent otherwise), on its `model:` when set,
 * and the conversation gets the child's answer. An AWorld agent skill is a handoff: its child gets the
 * user's request after the body (AWorld's sub-agent has the body as its prompt and the user's message).
 */
import type { Tool } from "ai";
import type { Catalog, SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";
import { substituteArguments } from "../context/substitute-arguments.js";
import { DelegationLimitError } from "../errors/delegation-limit-error.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { SkillTools } from "../tools/create-skill-tools.js";
import type { ProfileName } from "../tools/profile-types.js";
import { toolFailure } from "../tools/skill-tool-result.js";
import { type DelegationResult, type Delegator, GENERAL_AGENT } from "./delegate-to-agent.js";
import { answerText, type DelegationToolResult } from "./delegation-tool.js";
import type { EngineEvent } from "./engine-event.js";

/** True for an AWorld agent skill (`type: agent` under the aworld profile). */
function isAgentSkill(record: Pick<SkillRecord, "extras">, profile: ProfileName): boolean {
  const { type } = record.extras;
  return profile === "aworld" && typeof type === "string" && type.trim() === "agent";
}

/** True when loading `record` runs it in a child agent rather than in the conversation. */
export function isForkSkill(record: Pick<SkillRecord, "extras">, profile: ProfileName): boolean {
  const { context } = record.extras;
  return (typeof context === "string" && context.trim() === "fork") || isAgentSkill(record, profile);
}

/**
 * Runs the skill `name` as a child: its body with `args` substituted is the task (for an AWorld agent
 * skill, followed by the user's request: `options.request`, else the session's latest request). Throws
 * `SkillrtError` (`invalid-argument`) when its `agent:` names no known agent or delegation is past its
 * depth limit.
 */
export async function runForkSkill(
  parts: { delegator: Delegator; catalog: Catalog; session: SkillSession },
  name: string,
  args: string | undefined,
  parentCallId: string,
  options: { abortSignal?: AbortSignal; request?: string; onEvent?: (event: EngineEvent) => void } = {},
): Promise<DelegationResult> {
  const { delegator, catalog, session } = parts;
  const loaded = await catalog.load(name);
  const { extras } = loaded.record;
  const agentName = typeof extras.agent === "string" ? extras.agent.trim() : "";
  const definition =
    agentName === "" ? GENERAL_AGENT : delegator.agents.find((agent) => agent.name === agentName);
  if (definition === undefined) {
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        `Skill '${name}' runs in agent '${agentName}', which is not defined. Defined agents: ` +
        `${delegator.agents.map((a) => a.name).join(", ") || "none"} (agents/*.md next to the skills, or the agents option).`,
    });
  }
  const body = substituteArguments(loaded.body, {
    ...(args === undefined || args === "" ? {} : { args }),
    skillDir: loaded.record.dir,
    sessionId: session.id,
  });
  const request = (options.request ?? session.renderer.request()).trim();
  const task =
    isAgentSkill(loaded.record, session.profile.name) && request !== ""
      ? `${body.trimEnd()}\n\n---\n\nThe user's request:\n${request}`
      : body;
  const model =
    typeof extras.model === "string" && extras.model.trim() !== "" ? extras.model.trim() : undefined;
  return delegator.runDefinition(definition, task, parentCallId, {
    ...(model === undefined ? {} : { model }),
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
}

/**
 * Puts fork handling in front of the profile's load tool of `skillTools`: a call naming a fork skill the
 * model may load runs it as a child and answers with the child's result; other calls load as before.
 */
export function forkOnLoad(
  skillTools: SkillTools,
  parts: { delegator: Delegator; catalog: Catalog; session: SkillSession },
): void {
  const { session } = parts;
  const loadName = session.profile.toolNames.load;
  const load: Tool | undefined = skillTools.tools[loadName];
  const execute = load?.execute;
  if (load === undefined || execute === undefined) return;
  // Which input fields carry the name and the arguments, read off the profile's own load-call shape.
  const shape = session.profile.loadInput("\u0000name", "\u0000args");
  const nameKey = Object.keys(shape).find((key) => shape[key] === "\u0000name");
  const argsKey = Object.keys(shape).find((key) => shape[key] === "\u0000args");
  if (nameKey === undefined) return;
  skillTools.tools[loadName] = {
    ...load,
    execute: async (input: unknown, options: Parameters<NonNullable<Tool["execute"]>>[1]) => {
      const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
      const name = fields[nameKey];
      const access = typeof name === "string" ? session.findSkill(name) : undefined;
      if (access === undefined || !access.forModel || !isForkSkill(access.record, session.profile.name))
        return execute(input, options);
      const args = argsKey === undefined ? undefined : fields[argsKey];
      try {
        const result = await runForkSkill(
          parts,
          access.record.name,
          typeof args === "string" ? args : undefined,
          options.toolCallId,
          options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal },
        );
        const output: DelegationToolResult = {
          text: answerText(result),
          isError: result.aborted,
          delegation: result,
        };
        return output;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Past the limit of subagents per turn the child never started: said so, not as its failure.
        if (error instanceof DelegationLimitError)
          return toolFailure(
            `Skill '${access.record.name}' runs in its own agent, which was not started: ${message}`,
          );
        return toolFailure(`Skill '${access.record.name}' runs in its own agent, which failed: ${message}`);
      }
    },
  } as Tool;
}
