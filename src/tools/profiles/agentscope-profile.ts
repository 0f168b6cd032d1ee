/**
 * The `agentscope` profile (AgentScope Java): `load_skill_through_path { skillId, path }` with `skillId`
 * an enum of the visible skills' SkillBox ids (`name_source`, e.g. `pdf_filesystem-repo_skills`; a bare
 * name is accepted too, as the session's own load calls use it). `SKILL.md` loads the skill and
 * answers with its header and body; another path answers with that resource; a missing one lists the
 * available resources, SKILL.md first. Any successful call activates the skill for tool gating (its
 * `<skillId>_skill_tools` group and groups bound to it), a resource read included; a failed one does not.
 * Paths match exactly (no trimming). As in AgentScope's disk fallback, `\` counts as `/` and a path with a
 * `.` segment (`.`, `./x`, `a/./b`) is not a resource: the answer lists the available ones. `..` and
 * absolute paths are refused with the reason. With an executor, `execute_shell_command` runs SkillBox's
 * allowlisted programs in the workspace sandbox (`skillbox-shell-tool.ts`).
 */
import { tool } from "ai";
import { z } from "zod";
import { skillboxSkillId, skillboxSource } from "../../context/skillbox-metadata.js";
import type { ProfileContext, ProfileTools } from "../profile-types.js";
import { skillNameSchema } from "../skill-name-schema.js";
import { toolFailure, toolSuccess } from "../skill-tool-result.js";
import { paragraphs } from "../tool-text.js";
import { skillboxShellTool } from "./skillbox-shell-tool.js";

/** A path AgentScope's sanitiser rejects before looking on disk: a `.` segment (`.`, `./x`, `a/./b`). */
function hasDotSegment(path: string): boolean {
  return path.split("/").some((segment) => segment === ".");
}

function resourceList(id: string, path: string, available: readonly string[]): string {
  const list = ["SKILL.md", ...available.filter((p) => p !== "SKILL.md")];
  return `Resource not found: '${path}' in skill '${id}'.\n\nAvailable resources:\n${list.map((p, i) => `${i + 1}. ${p}`).join("\n")}`;
}

/** Builds the AgentScope-style path loader. */
export function agentscopeProfile(ctx: ProfileContext): ProfileTools {
  const { session } = ctx;
  const visible = session.visibleSkills();
  const names = new Map(visible.map((r) => [skillboxSkillId(r), r.name]));
  const ids = [...names.keys()].sort();
  /** The skill name of a SkillBox id (or of a bare visible name). */
  const resolve = (id: string): string => names.get(id) ?? id;
  return {
    readActivates: true,
    tools: {
      load_skill_through_path: tool({
        description:
          'Load a skill or one of its resources. Use path="SKILL.md" for the skill\'s instructions; for resources use the exact paths the skill lists. Do not use ".", "./", the directory, or absolute paths.',
        inputSchema: z.object({
          skillId: skillNameSchema(
            ids,
            "The skill id, exactly as listed in <skill-id> of <available_skills>.",
          ),
          path: z.string().describe('"SKILL.md" or a resource path relative to the skill.'),
        }),
        execute: async (input, { toolCallId }) => {
          if (input.skillId.trim() === "") return toolFailure("Missing or empty required parameter: skillId");
          if (input.path.trim() === "") return toolFailure("Missing or empty required parameter: path");
          const id = input.skillId;
          const name = resolve(id);
          if (input.path === "SKILL.md") {
            const result = await session.load(name, { toolCallId });
            if (!result.ok)
              return toolFailure(
                result.code === "unknown-skill"
                  ? `Skill not found: '${id}'. Please check the skill ID.`
                  : result.message,
              );
            if (!result.alreadyLoaded) await ctx.afterLoad(result.name);
            const body =
              session.placement === "history"
                ? result.body
                : "(now in the system prompt under Loaded Skill Instructions)";
            const header = `Successfully loaded skill: ${id}\n\nName: ${result.record.name}\nDescription: ${result.record.description}\nSource: ${skillboxSource(result.record)}`;
            return toolSuccess(paragraphs(`${header}\n\nContent:\n---\n${body}\n---\n`, result.notice));
          }
          const files = await session.listFiles(name);
          if (!files.ok) return toolFailure(`Skill not found: '${id}'. Please check the skill ID.`);
          const available = files.files.map((f) => f.path);
          const path = input.path.replaceAll("\\", "/");
          if (path !== path.trim() || hasDotSegment(path))
            return toolFailure(resourceList(id, input.path, available));
          const result = await session.readFile(name, path, { toolCallId });
          if (!result.ok) {
            if (result.code === "file-not-found")
              return toolFailure(resourceList(id, input.path, result.available ?? available));
            return toolFailure(result.message);
          }
          return toolSuccess(
            paragraphs(
              `Successfully loaded resource from skill: ${id}\nResource path: ${result.path}\n\nContent:\n---\n${result.content}---\n`,
              result.notice,
            ),
          );
        },
      }),
      ...(ctx.run === undefined ? {} : { execute_shell_command: skillboxShellTool(session, ctx.run) }),
    },
  };
}
