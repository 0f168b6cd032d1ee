/**
 * The `trpc` profile (trpc-agent-go): `skill_load { skill, docs?, include_all_docs? }` answering
 * `loaded: <name>`, `skill_select_docs` answering the complete selection object, `skill_list_docs`
 * answering the array of doc paths; errors `unknown skill: <name>` and `skill is required`; `skill_run`
 * (when execution is configured) takes `skill`, not `name`, and answers with the run as a JSON object
 * (`exit_code`, `stdout`, `stderr`, `timed_out`, `duration_ms`, `output_files`, …). In history placement the loaded content follows
 * the `loaded: X` line (trpc's tool-result materialisation); in system placement it uses trpc's layout
 * (`[Loaded] <name>`, `Docs loaded: …`, `[Doc] <path>`). With `maxLoadedSkills`, a load or doc selection past
 * the limit unloads the least recently touched skill instead of being refused (trpc's `WithMaxLoadedSkills`).
 */
import { tool } from "ai";
import { z } from "zod";
import type { SessionFailure } from "../../context/session-results.js";
import type { ProfileContext, ProfileTools } from "../profile-types.js";
import { toolFailure, toolSuccess } from "../skill-tool-result.js";
import { paragraphs } from "../tool-text.js";
import { normalizeMode } from "./skillrt-profile.js";
import { trpcSkillRun } from "./trpc-skill-run.js";

/** trpc's error text for a failure (unknown names keep the exact seed text, plus the closest names). */
function trpcError(failure: SessionFailure, name: string): string {
  if (failure.code === "unknown-skill") {
    const closest =
      failure.closest !== undefined && failure.closest.length > 0
        ? ` (closest: ${failure.closest.join(", ")})`
        : "";
    return `unknown skill: ${name}${closest}`;
  }
  return failure.message;
}

/** Builds the trpc-agent-go–style knowledge tools. */
export function trpcProfile(ctx: ProfileContext): ProfileTools {
  const { session } = ctx;
  const skill = ctx.nameSchema("Skill name.");
  // trpc's loaded-order key: skill_load and skill_select_docs touch a skill (move it to the end); past
  // maxLoadedSkills the least recently touched are unloaded (skills loaded otherwise count as oldest).
  let touched: string[] = [];
  const touch = (name: string): void => {
    touched = [...touched.filter((n) => n !== name), name];
    const max = session.profile.maxLoadedSkills;
    const loaded = session.loadedSkills();
    if (max === undefined || loaded.length <= max) return;
    touched = touched.filter((n) => loaded.includes(n));
    const order = [...loaded.filter((n) => !touched.includes(n)), ...touched];
    for (const name of order.slice(0, order.length - max)) session.unload(name);
    touched = touched.slice(-max);
  };
  return {
    runParam: "skill",
    // trpc-agent-go's skill_run answers with its result object as JSON.
    renderRun: (run) => JSON.stringify(run),
    ...(ctx.run === undefined ? {} : { runTools: { skill_run: trpcSkillRun(ctx.run) } }),
    tools: {
      skill_load: tool({
        description:
          "Load a skill's SKILL.md first, then only the docs you need. Safe to call repeatedly to add or replace docs. Do not call it to list skills: their names are already in context.",
        inputSchema: z.object({
          skill,
          docs: z.array(z.string()).optional().describe("Doc paths to load."),
          include_all_docs: z.boolean().optional().describe("Load every doc."),
        }),
        execute: async (input, { toolCallId }) => {
          if (input.skill.trim() === "") return toolFailure("skill is required");
          const result = await session.load(input.skill, {
            ...(input.docs !== undefined ? { docs: input.docs } : {}),
            ...(input.include_all_docs !== undefined ? { includeAllDocs: input.include_all_docs } : {}),
            toolCallId,
          });
          if (!result.ok) return toolFailure(trpcError(result, input.skill));
          touch(result.name);
          if (!result.alreadyLoaded) await ctx.afterLoad(result.name);
          const content = session.placement === "history" && !result.alreadyLoaded ? result.content : "";
          return toolSuccess(
            paragraphs(`loaded: ${result.name}`, content + result.docsContent, result.notice),
          );
        },
      }),
      skill_select_docs: tool({
        description:
          "Select docs of a loaded skill: mode add, replace (default) or clear; include_all_docs selects all.",
        inputSchema: z.object({
          skill,
          docs: z.array(z.string()).optional(),
          include_all_docs: z.boolean().optional(),
          mode: z.string().optional().describe('"add", "replace" (default) or "clear".'),
        }),
        execute: async (input, { toolCallId }) => {
          if (input.skill.trim() === "") return toolFailure("skill is required");
          const mode = normalizeMode(input.mode);
          const result = await session.selectDocs(input.skill, input.docs ?? [], mode, {
            ...(input.include_all_docs !== undefined ? { includeAllDocs: input.include_all_docs } : {}),
            toolCallId,
          });
          if (!result.ok) return toolFailure(trpcError(result, input.skill));
          touch(result.name);
          const selection = JSON.stringify({
            skill: result.name,
            selected_docs: result.docs,
            include_all_docs: result.includeAllDocs,
            mode,
          });
          return toolSuccess(paragraphs(selection, result.content, result.notice));
        },
      }),
      skill_list_docs: tool({
        description: "List the doc paths of a skill.",
        inputSchema: z.object({ skill }),
        execute: async (input) => {
          const result = await session.listDocs(input.skill);
          return result.ok
            ? toolSuccess(JSON.stringify(result.docs))
            : toolFailure(trpcError(result, input.skill));
        },
      }),
    },
  };
}
