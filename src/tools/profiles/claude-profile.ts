/**
 * The `claude` profile (Claude Code): one `Skill { skill, args? }` tool that loads a skill with optional
 * arguments (`$ARGUMENTS`, `$0`…), plus `skill_read` for the skill's files (Claude Code uses its generic
 * Read tool there). No unload, as in Claude Code.
 */
import { tool } from "ai";
import { z } from "zod";
import type { ProfileContext, ProfileTools } from "../profile-types.js";
import { toolFailure, toolSuccess } from "../skill-tool-result.js";
import { paragraphs } from "../tool-text.js";
import { canonicalSchemas, readSkillFileForModel } from "./skillrt-profile.js";

/** Builds the Claude Code–style tools. */
export function claudeProfile(ctx: ProfileContext): ProfileTools {
  const { session } = ctx;
  const name = ctx.nameSchema("The skill name, exactly as listed.");
  const read = canonicalSchemas(name).skill_read;
  return {
    tools: {
      Skill: tool({
        description:
          "Execute a skill within the main conversation: loads the skill's instructions. When a listed skill matches the task, invoke it before anything else. Pass arguments in args.",
        inputSchema: z.object({
          skill: name,
          args: z.string().optional().describe("Optional arguments for the skill."),
        }),
        execute: async (input, { toolCallId }) => {
          const result = await session.load(input.skill, {
            ...(input.args !== undefined ? { args: input.args } : {}),
            toolCallId,
          });
          if (!result.ok) return toolFailure(result.message);
          if (!result.alreadyLoaded) await ctx.afterLoad(result.name);
          return toolSuccess(paragraphs(result.content, result.notice));
        },
      }),
      skill_read: tool({
        description:
          "Read one file of a skill by its path relative to the skill directory, optionally a line range.",
        inputSchema: read,
        execute: (input, { toolCallId }) => readSkillFileForModel(session, input, toolCallId),
      }),
    },
  };
}
