/**
 * The canonical `skillrt` profile: `skill_load`, `skill_read`, `skill_list_docs`, `skill_select_docs`,
 * `skill_unload` (`skill_search`, `skill_run` and script tools are added by `createSkillTools`).
 * Every failure is a tool result written for the model.
 */
import { tool } from "ai";
import { z } from "zod";
import type { SkillSession } from "../../context/skill-session.js";
import type { ProfileContext, ProfileTools } from "../profile-types.js";
import { type SkillToolResult, toolFailure, toolSuccess } from "../skill-tool-result.js";
import { paragraphs } from "../tool-text.js";

/** Zod input schemas of the canonical tools for a given name schema (also exported as JSON Schema). */
export function canonicalSchemas(name: z.ZodType<string>) {
  return {
    skill_load: z.object({
      name,
      docs: z
        .array(z.string())
        .optional()
        .describe("Doc paths to load with the skill (replaces the current selection)."),
      include_all_docs: z.boolean().optional().describe("Load every doc of the skill."),
      args: z
        .string()
        .optional()
        .describe("Arguments for the skill ($ARGUMENTS, $0, $1, … in its instructions)."),
    }),
    skill_read: z.object({
      name,
      path: z
        .string()
        .describe("Path relative to the skill directory, e.g. references/guide.md or SKILL.md."),
      start_line: z.number().int().positive().optional().describe("First line to read (1-based)."),
      end_line: z.number().int().positive().optional().describe("Last line to read (inclusive)."),
    }),
    skill_list_docs: z.object({ name }),
    skill_select_docs: z.object({
      name,
      docs: z.array(z.string()).optional().describe("Doc paths."),
      include_all_docs: z.boolean().optional().describe("Select every doc (kept until mode clear)."),
      mode: z.string().optional().describe('"add", "replace" (default) or "clear".'),
    }),
    skill_unload: z.object({ name }),
  };
}

/** Input of the canonical `skill_read` tool. */
export type SkillReadInput = z.infer<ReturnType<typeof canonicalSchemas>["skill_read"]>;

/**
 * What `skill_read` answers (skillrt and claude profiles): the file or its line range with any notice, or
 * the failure written for the model.
 */
export async function readSkillFileForModel(
  session: SkillSession,
  input: SkillReadInput,
  toolCallId: string,
): Promise<SkillToolResult> {
  const result = await session.readFile(input.name, input.path, {
    ...(input.start_line !== undefined ? { startLine: input.start_line } : {}),
    ...(input.end_line !== undefined ? { endLine: input.end_line } : {}),
    toolCallId,
  });
  return result.ok ? toolSuccess(paragraphs(result.content, result.notice)) : toolFailure(result.message);
}

/** `add` / `replace` / `clear`; anything else means `replace` (trpc's rule). */
export function normalizeMode(mode: string | undefined): "add" | "replace" | "clear" {
  return mode === "add" || mode === "clear" ? mode : "replace";
}

/** Builds the canonical tools. */
export function skillrtProfile(ctx: ProfileContext): ProfileTools {
  const { session } = ctx;
  const schemas = canonicalSchemas(ctx.nameSchema("Skill name, exactly as the skills catalog lists it."));
  return {
    tools: {
      skill_load: tool({
        description:
          "Load a skill's instructions (SKILL.md body) into the context. Call it before doing a task a listed skill covers, then follow what it returns. Loading twice is harmless.",
        inputSchema: schemas.skill_load,
        execute: async (input, { toolCallId }) => {
          const result = await session.load(input.name, {
            ...(input.docs !== undefined ? { docs: input.docs } : {}),
            ...(input.include_all_docs !== undefined ? { includeAllDocs: input.include_all_docs } : {}),
            ...(input.args !== undefined ? { args: input.args } : {}),
            toolCallId,
          });
          if (!result.ok) return toolFailure(result.message);
          if (!result.alreadyLoaded) await ctx.afterLoad(result.name);
          return toolSuccess(paragraphs(result.content + result.docsContent, result.notice));
        },
      }),
      skill_read: tool({
        description:
          "Read one file of a skill (a reference, a script's source, SKILL.md itself), optionally a line range. Binary files are described, not shown.",
        inputSchema: schemas.skill_read,
        execute: (input, { toolCallId }) => readSkillFileForModel(session, input, toolCallId),
      }),
      skill_list_docs: tool({
        description: "List the doc files (.md, .txt) of a skill that skill_select_docs can load.",
        inputSchema: schemas.skill_list_docs,
        execute: async (input) => {
          const result = await session.listDocs(input.name);
          if (!result.ok) return toolFailure(result.message);
          return toolSuccess(
            result.docs.length === 0
              ? `Skill '${result.name}' has no docs.`
              : `Docs of skill '${result.name}':\n${result.docs.map((d) => `- ${d}`).join("\n")}`,
          );
        },
      }),
      skill_select_docs: tool({
        description:
          "Change which docs of a loaded skill are in the context: mode add, replace (default) or clear. Returns the complete selection.",
        inputSchema: schemas.skill_select_docs,
        execute: async (input, { toolCallId }) => {
          const mode = normalizeMode(input.mode);
          const result = await session.selectDocs(input.name, input.docs ?? [], mode, {
            ...(input.include_all_docs !== undefined ? { includeAllDocs: input.include_all_docs } : {}),
            toolCallId,
          });
          if (!result.ok) return toolFailure(result.message);
          const summary = `Selected docs of '${result.name}' (mode ${mode}): ${result.docs.length > 0 ? result.docs.join(", ") : "none"}${result.includeAllDocs ? " (all docs)" : ""}.`;
          return toolSuccess(paragraphs(result.content, summary, result.notice));
        },
      }),
      skill_unload: tool({
        description:
          "Remove a loaded skill (and its docs and file reads) from the context when you no longer need it.",
        inputSchema: schemas.skill_unload,
        execute: async (input) => {
          const result = session.unload(input.name);
          if (!result.ok) return toolFailure(result.message);
          return toolSuccess(
            `Skill '${result.name}' unloaded. Loaded skills: [${result.loaded.join(", ")}].`,
          );
        },
      }),
    },
  };
}
