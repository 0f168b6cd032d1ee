/**
 * The `aworld` profile (AWorld): `active_skill { skill_name }` answering `skill X activated, current
 * skills: [...]` with `<skill_guide>` (the usage) and `<skill_path>`, `offload_skill { skill_name }`
 * answering `skill X offloaded, current skills: [...]`, and `read_skill_file { skill_name, file_path }`
 * (an `@` / `@<dir>/` prefix is stripped), `list_skill_file_tree { skill_name }` and
 * `list_skill_directory { skill_name, dir_path? }` (see `aworld-skill-files.ts`). Messages are AWorld's,
 * word for word.
 */
import { basename } from "node:path";
import { tool } from "ai";
import { z } from "zod";
import type { ProfileContext, ProfileTools } from "../profile-types.js";
import { toolFailure, toolSuccess } from "../skill-tool-result.js";
import { paragraphs, pyList } from "../tool-text.js";
import { renderSkillDirectory, renderSkillFileTree } from "./aworld-skill-files.js";

/** Builds the AWorld-style tools. */
export function aworldProfile(ctx: ProfileContext): ProfileTools {
  const { session } = ctx;
  const skillName = ctx.nameSchema("Name of the skill.");
  const current = (): string => pyList(session.loadedSkills());
  const visible = (name: string) => {
    const found = session.findSkill(name);
    return found?.forModel === true ? found.record : undefined;
  };
  const notFound = (name: string) =>
    toolFailure(`Skill '${name}' not found in namespace '${session.namespace}'`);
  return {
    systemPrompt: withForcedSkillContract,
    tools: {
      active_skill: tool({
        description:
          "Activate a skill: its usage guide enters the context. Activate only what the task needs; do not activate an active skill again.",
        inputSchema: z.object({ skill_name: skillName }),
        execute: async (input, { toolCallId }) => {
          const result = await session.load(input.skill_name, { toolCallId });
          if (!result.ok)
            return toolFailure(
              result.code === "unknown-skill" ? `skill not found. ${result.message}` : result.message,
            );
          if (result.alreadyLoaded)
            return toolSuccess(`skill ${result.name} already activated, current skills: ${current()}`);
          await ctx.afterLoad(result.name);
          const guide =
            session.placement === "history"
              ? result.body
              : session.profile.systemLayout === "aworld"
                ? `(in the system prompt in <skill_file_content id="${result.name}">)`
                : "(in the system prompt under Loaded Skill Instructions)";
          return toolSuccess(
            paragraphs(
              `skill ${result.name} activated, current skills: ${current()}\n\n<skill_guide>${guide}</skill_guide>\n<skill_path>${result.dir}</skill_path>`,
              result.notice,
            ),
          );
        },
      }),
      offload_skill: tool({
        description: "Offload an active skill when the task it serves is done.",
        inputSchema: z.object({ skill_name: skillName }),
        execute: async (input) => {
          const result = session.unload(input.skill_name);
          if (!result.ok)
            return toolFailure(`skill ${input.skill_name} not found, current skills: ${current()}`);
          return toolSuccess(`skill ${result.name} offloaded, current skills: ${current()}`);
        },
      }),
      read_skill_file: tool({
        description: "Read a file inside a skill's directory, by its path relative to the skill.",
        inputSchema: z.object({
          skill_name: skillName,
          file_path: z.string().describe("Path relative to the skill directory."),
        }),
        execute: async (input, { toolCallId }) => {
          const path = input.file_path
            .replace(/^@/, "")
            .replace(new RegExp(`^${escapeRegExp(input.skill_name)}/`), "");
          const result = await session.readFile(input.skill_name, path, { toolCallId });
          if (result.ok) return toolSuccess(paragraphs(result.content, result.notice));
          if (result.code === "file-not-found")
            return toolFailure(
              `文件不存在: skill=${input.skill_name}, file_path=${input.file_path}\n${result.message}`,
            );
          return toolFailure(result.message);
        },
      }),
      list_skill_file_tree: tool({
        description: "list the complete file tree structure of a skill directory",
        inputSchema: z.object({ skill_name: skillName }),
        execute: async (input) => {
          const record = visible(input.skill_name);
          if (record === undefined) return notFound(input.skill_name);
          const files = await session.catalog.files(record.name);
          return toolSuccess(renderSkillFileTree(basename(record.dir), files));
        },
      }),
      list_skill_directory: tool({
        description: "list files and subdirectories in a specified directory of a skill",
        inputSchema: z.object({
          skill_name: skillName,
          dir_path: z
            .string()
            .optional()
            .describe(
              "relative directory path within the skill directory, defaults to root if not specified",
            ),
        }),
        execute: async (input) => {
          const record = visible(input.skill_name);
          if (record === undefined) return notFound(input.skill_name);
          const files = await session.catalog.files(record.name);
          const listing = renderSkillDirectory(record.name, record.dir, input.dir_path, files);
          return listing.ok ? toolSuccess(listing.text) : toolFailure(listing.message);
        },
      }),
    },
  };
}

/**
 * AWorld's `<forced_skill_contract>` (SkillsNeuron `_forced_skill_contract`), placed as AWorld places it:
 * after `</skill_guide>`, before `<skills_info>`.
 */
export function withForcedSkillContract(base: string, forced: readonly string[]): string {
  const contract =
    "  <forced_skill_contract>\n" +
    `    The user explicitly requested these skill(s) for this task: ${forced.join(", ")}.\n` +
    "    These skills are already activated for this task.\n" +
    "    Their active <skill_usage> instructions override conflicting generic workflow.\n" +
    "    You MUST complete the forced-skill workflow before falling back to generic planning, delegation, or tool usage.\n" +
    "    If a forced skill is instruction-only, respond directly and do not call unrelated tools or subagents before following that skill.\n" +
    "  </forced_skill_contract>\n";
  const at = base.indexOf("  <skills_info>\n");
  return at < 0 ? `${base}${contract}` : base.slice(0, at) + contract + base.slice(at);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
