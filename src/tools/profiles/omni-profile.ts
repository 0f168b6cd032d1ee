/**
 * The `omni` profile (OmniEmployee, `src/omniemployee/core/loop.py`): `load_skill { name }`,
 * `load_skill_reference { skill_name, ref_path }` (the skill must be loaded; references are `forms.md`,
 * `reference.md` and `references/*.{md,txt,yaml,yml,json}`) and `unload_skill { name }`, which drops the
 * skill's references too, `list_skills { verbose? }` (the `[✓]` / `[○]` summary) and, with an executor,
 * `run_command { command, working_dir?, timeout = 120, env? }` in the workspace sandbox with Omni's
 * `$ cmd` output. The schemas carry Omni's parameter names; the names earlier skillrt versions used
 * (`skill_name` for load and unload, `reference`) are still accepted. A load answers with
 * `Skill.get_full_instructions` (`# Skill:`, `## Skill Context`, the `uv run` hints of its scripts); with an
 * executor the hints name the skill's folder as `run_command` sees it (`<workspace>/skills/<name>`), not
 * the host folder the sandbox does not mount. Once the conversation is longer than 10 messages, a loaded
 * skill whose name none of the last 10 mentions is unloaded (Omni's heuristic). Markdown catalog with `[✓]` / `[○]`.
 * Messages are OmniEmployee's, word for word (see `omni-skill-text.ts`).
 */
import { tool } from "ai";
import { z } from "zod";
import { isOmniReference } from "../../context/doc-rules.js";
import { omniFullInstructions } from "../../context/render-omni-skill.js";
import type { SkillSession } from "../../context/skill-session.js";
import type { ProfileContext, ProfileRun, ProfileTools } from "../profile-types.js";
import { toolFailure, toolSuccess } from "../skill-tool-result.js";
import { paragraphs, pyList } from "../tool-text.js";
import { omniCommandOutput, omniSummaryLine, unmentionedSkills } from "./omni-skill-text.js";

/** Builds the OmniEmployee-style tools. */
export function omniProfile(ctx: ProfileContext): ProfileTools {
  const { session } = ctx;
  const skillName = ctx.nameSchema("Name of the skill.");
  const nameInput = z.preprocess(renamed({ skill_name: "name" }), z.object({ name: skillName }));
  const usage = (): string => {
    const ledger = session.ledger();
    return `${Math.round((ledger.total / ledger.contextWindow) * 100)}%`;
  };
  return {
    observeHistory: (contents) => {
      if (contents.length <= RECENT_MESSAGES) return;
      for (const name of unmentionedSkills(session.loadedSkills(), contents.slice(-RECENT_MESSAGES)))
        session.unload(name);
    },
    tools: {
      list_skills: tool({
        description:
          "List the available skills; [✓] marks the loaded ones. verbose adds when to use each and its references.",
        inputSchema: z.object({
          verbose: z.boolean().optional().describe("Include when_to_use and references."),
        }),
        execute: async (input) => {
          const visible = session.visibleSkills();
          if (visible.length === 0) return toolSuccess("No skills available.");
          const loaded = new Set(session.loadedSkills());
          const lines: string[] = [];
          for (const r of visible) {
            const whenToUse = typeof r.extras.when_to_use === "string" ? r.extras.when_to_use : undefined;
            const references =
              input.verbose === true
                ? (await session.catalog.files(r.name).catch(() => []))
                    .map((f) => f.path)
                    .filter(isOmniReference)
                : [];
            lines.push(
              omniSummaryLine(
                {
                  name: r.name,
                  description: r.description,
                  loaded: loaded.has(r.name),
                  ...(whenToUse === undefined ? {} : { whenToUse }),
                  references,
                },
                input.verbose === true,
              ),
            );
          }
          return toolSuccess(lines.join("\n"));
        },
      }),
      load_skill: tool({
        description:
          "Load a skill's full instructions into the context. Use it when a task matches a skill in the list.",
        inputSchema: nameInput,
        execute: async (given, { toolCallId }) => {
          const input = asNamed(given);
          if (input.name.trim() === "") return toolFailure("Skill name is required");
          const result = await session.load(input.name, { toolCallId });
          if (!result.ok)
            return toolFailure(
              `Failed to load skill '${input.name}'. It may not exist or exceed token budget. (${result.message})`,
            );
          if (!result.alreadyLoaded) await ctx.afterLoad(result.name);
          const refs = result.files.map((f) => f.path).filter(isOmniReference);
          const head = `Skill '${result.name}' loaded successfully. Available references: ${pyList(refs)}\nCurrently loaded skills: ${pyList(session.loadedSkills())}`;
          const content =
            session.placement === "history" && !result.alreadyLoaded
              ? await omniFullInstructions(
                  session.catalog,
                  session.loadedSkill(result.name)?.record ??
                    session.catalog.get(result.name) ?? {
                      name: result.name,
                      description: "",
                      dir: "",
                      extras: {},
                    },
                  result.body,
                  result.files.map((f) => f.path),
                  ctx.run?.viewDir(result.name),
                )
              : "";
          return toolSuccess(paragraphs(head, content, result.notice));
        },
      }),
      load_skill_reference: tool({
        description:
          "Load a reference file of a loaded skill (e.g. references/api.md) when its instructions call for it.",
        inputSchema: z.preprocess(
          renamed({ reference: "ref_path" }),
          z.object({
            skill_name: skillName,
            ref_path: z.string().describe("Reference path, as listed by load_skill (e.g. reference.md)."),
          }),
        ),
        execute: async (given, { toolCallId }) => {
          // Called directly (not through the schema), the earlier names are read too.
          const input = renamed({ reference: "ref_path" })(given) as typeof given;
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
          if (!refs.includes(input.ref_path))
            return toolFailure(
              `Reference '${input.ref_path}' not found. Available references: ${pyList(refs)}`,
            );
          const result = await session.selectDocs(input.skill_name, [input.ref_path], "add", { toolCallId });
          if (!result.ok) return toolFailure(result.message);
          if (!result.docs.includes(input.ref_path))
            return toolFailure(
              paragraphs(`Reference '${input.ref_path}' could not be loaded.`, result.notice),
            );
          const content =
            result.content !== ""
              ? result.content
              : "(now in the system prompt under Loaded Skill References)";
          return toolSuccess(paragraphs(`Reference '${input.ref_path}' loaded:`, content, result.notice));
        },
      }),
      unload_skill: tool({
        description: "Unload a skill (and its references) to free context when you are done with it.",
        inputSchema: nameInput,
        execute: async (given) => {
          const input = asNamed(given);
          const result = session.unload(input.name);
          if (!result.ok)
            return toolFailure(
              result.code === "not-loaded"
                ? `Skill '${input.name}' is not currently loaded.`
                : result.message,
            );
          return toolSuccess(
            `Skill '${result.name}' unloaded successfully.\nCurrently loaded skills: ${pyList(result.loaded)}\nContext usage: ${usage()}`,
          );
        },
      }),
      ...(ctx.run === undefined ? {} : { run_command: runCommandTool(session, ctx.run) }),
    },
  };
}

/**
 * A preprocessor that renames keys of an object input (`from → to`) unless the new name is given too: the
 * parameter names earlier skillrt versions used, accepted beside Omni's own (which the schema shows).
 */
function renamed(names: Record<string, string>): (input: unknown) => unknown {
  return (input) => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
    const out: Record<string, unknown> = { ...input };
    for (const [from, to] of Object.entries(names)) {
      if (from in out && !(to in out)) out[to] = out[from];
      delete out[from];
    }
    return out;
  };
}

/** `{ name }` of a load or unload input, also when called directly with the earlier `skill_name`. */
function asNamed(input: { name: string }): { name: string } {
  return renamed({ skill_name: "name" })(input) as { name: string };
}

/** How many recent messages the auto-unload heuristic reads. */
const RECENT_MESSAGES = 10;

/** `run_command`: a shell command in the workspace (`work/`), sandboxed as `skill_run`. */
function runCommandTool(session: SkillSession, run: ProfileRun) {
  return tool({
    description:
      "Execute shell commands or Python scripts.\nSupports:\n- Direct bash commands (e.g., 'ls -la', 'echo hello')\n- Python scripts via uv run (e.g., 'uv run script.py')\n- Any shell executable command\n\nUse working_dir to specify execution directory. Commands run in workspace root by default.",
    inputSchema: z.object({
      command: z
        .string()
        .describe(
          "The command to execute. Can be a bash command or 'uv run <script.py>' for Python scripts.",
        ),
      working_dir: z
        .string()
        .optional()
        .describe("Working directory for command execution. Defaults to workspace root."),
      timeout: z.number().int().positive().optional().describe("Timeout in seconds. Default: 120."),
      env: z.record(z.string(), z.string()).optional().describe("Additional environment variables to set."),
    }),
    execute: async (input, { abortSignal }) => {
      const timeout = input.timeout ?? 120;
      // Commands run for a skill (its folder mounted read-only): the loaded one whose folder the command or
      // working_dir names (as load_skill's `uv run` hints do), else the last loaded one, else the first listed.
      const loadedNow = session.loadedSkills();
      const names = (n: string): boolean => {
        const view = run.viewDir(n);
        return input.command.includes(`${view}/`) || input.working_dir?.startsWith(view) === true;
      };
      const name = loadedNow.find(names) ?? loadedNow.at(-1) ?? session.visibleSkills()[0]?.name;
      if (name === undefined) return toolFailure("Failed to execute command: no skill is available.");
      const cwd =
        input.working_dir === undefined || input.working_dir === ""
          ? run.workDir
          : input.working_dir.startsWith("/")
            ? input.working_dir
            : `${run.workDir}/${input.working_dir}`;
      const result = await run.execute(
        {
          name,
          command: input.command,
          cwd,
          timeout,
          ...(input.env === undefined ? {} : { env: input.env }),
        },
        abortSignal,
      );
      if (result.status === "refused") {
        return toolFailure(
          /outside the skill directory and the workspace, or does not exist/.test(result.message)
            ? `Working directory does not exist: ${cwd}`
            : `Failed to execute command: ${result.message}`,
        );
      }
      if (result.timedOut) return toolFailure(`Command timed out after ${timeout} seconds`);
      const inDir = cwd !== run.workDir ? cwd : undefined;
      const output = omniCommandOutput(input.command, inDir, result.stdout, result.stderr);
      return result.exitCode === 0
        ? toolSuccess(output)
        : toolFailure(`${output}\nCommand exited with code ${result.exitCode}`);
    },
  });
}
