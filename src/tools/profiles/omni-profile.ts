/**
 * The `omni` profile (OmniEmployee): `load_skill { skill_name }`, `load_skill_reference { skill_name,
 * reference }` (the skill must be loaded; references are `forms.md`, `reference.md` and
 * `references/*.{md,txt,yaml,yml,json}`) and `unload_skill { skill_name }`, which drops the skill's
 * references too. Markdown catalog with `[✓]` / `[○]`. Messages are OmniEmployee's, word for word.
 */
import { tool } from "ai";
import { z } from "zod";
import { isOmniReference } from "../../context/doc-rules.js";
import type { ProfileContext, ProfileTools } from "../profile-types.js";
import { toolFailure, toolSuccess } from "../skill-tool-result.js";
import { paragraphs, pyList } from "../tool-text.js";

/** Builds the OmniEmployee-style tools. */
export function omniProfile(ctx: ProfileContext): ProfileTools {
  const { session } = ctx;
  const skillName = ctx.nameSchema("Name of the skill.");
  const usage = (): string => {
    const ledger = session.ledger();
    return `${Math.round((ledger.total / ledger.contextWindow) * 100)}%`;
  };
  return {
    tools: {
      load_skill: tool({
        description:
          "Load a skill's full instructions into the context. Use it when a task matches a skill in the list.",
        inputSchema: z.object({ skill_name: skillName }),
        execute: async (input, { toolCallId }) => {
          if (input.skill_name.trim() === "") return toolFailure("Skill name is required");
          const result = await session.load(input.skill_name, { toolCallId });
          if (!result.ok)
            return toolFailure(
              `Failed to load skill '${input.skill_name}'. It may not exist or exceed token budget. (${result.message})`,
            );
          if (!result.alreadyLoaded) await ctx.afterLoad(result.name);
          const refs = result.files.map((f) => f.path).filter(isOmniReference);
          const head = `Skill '${result.name}' loaded successfully. Available references: ${pyList(refs)}\nCurrently loaded skills: ${pyList(session.loadedSkills())}`;
          const content = session.placement === "history" && !result.alreadyLoaded ? result.content : "";
          return toolSuccess(paragraphs(head, content, result.notice));
        },
      }),
      load_skill_reference: tool({
        description:
          "Load a reference file of a loaded skill (e.g. references/api.md) when its instructions call for it.",
        inputSchema: z.object({
          skill_name: skillName,
          reference: z.string().describe("Reference path, as listed by load_skill."),
        }),
        execute: async (input, { toolCallId }) => {
          const loaded = session.loadedSkill(input.skill_name);
          if (loaded === undefined) {
            const known = session.visibleSkills().some((r) => r.name === input.skill_name);
            return toolFailure(
              known
                ? `Skill '${input.skill_name}' is not loaded. Load the skill first using load_skill.`
                : session.notFound(input.skill_name).message,
            );
          }
          const refs = loaded.files.map((f) => f.path).filter(isOmniReference);
          if (!refs.includes(input.reference))
            return toolFailure(
              `Reference '${input.reference}' not found. Available references: ${pyList(refs)}`,
            );
          const result = await session.selectDocs(input.skill_name, [input.reference], "add", { toolCallId });
          if (!result.ok) return toolFailure(result.message);
          if (!result.docs.includes(input.reference))
            return toolFailure(
              paragraphs(`Reference '${input.reference}' could not be loaded.`, result.notice),
            );
          const content =
            result.content !== ""
              ? result.content
              : "(now in the system prompt under Loaded Skill References)";
          return toolSuccess(paragraphs(`Reference '${input.reference}' loaded:`, content, result.notice));
        },
      }),
      unload_skill: tool({
        description: "Unload a skill (and its references) to free context when you are done with it.",
        inputSchema: z.object({ skill_name: skillName }),
        execute: async (input) => {
          const result = session.unload(input.skill_name);
          if (!result.ok)
            return toolFailure(
              result.code === "not-loaded"
                ? `Skill '${input.skill_name}' is not currently loaded.`
                : result.message,
            );
          return toolSuccess(
            `Skill '${result.name}' unloaded successfully.\nCurrently loaded skills: ${pyList(result.loaded)}\nContext usage: ${usage()}`,
          );
        },
      }),
    },
  };
}
