import type { Catalog } from "../../catalog/types.js";
import { createSkillSession } from "../../context/create-skill-session.js";
import { renderRequestSkills } from "../../context/render-catalog.js";
import type { CatalogFormat } from "../../context/session-options.js";
import type { SkillSession } from "../../context/skill-session.js";
import { type PromptEntry, toPrompt } from "../../spec/to-prompt.js";
import { rootOption } from "../cli-roots.js";
import { defineCommand, usageError } from "../define-command.js";
import { intFlag } from "../int-flag.js";
import { openCliCatalog } from "../open-cli-catalog.js";
import { openMcpSkills } from "../open-mcp-skills.js";
import { readPromptPaths } from "../read-prompt-paths.js";
import { writeOutput } from "../write-output.js";

/** Every catalog format, default first. */
const FORMATS: readonly CatalogFormat[] = [
  "list",
  "agentskills",
  "xml",
  "markdown",
  "aworld",
  "skillbox",
  "skillbox-exec",
];

/** `skillrt prompt`: print the catalog block a model would see. */
export const promptCommand = defineCommand({
  name: "prompt",
  summary: "Print the skills catalog for a system prompt",
  usage: `Usage: skillrt prompt [PATH...] [--format list|agentskills|xml|markdown|aworld|skillbox] [--root DIR]...
                      [--catalog-budget TOKENS] [--context-window N] [--preamble]
                      [--for REQUEST]

Print the catalog (name and description of every skill the model may use) exactly as a
skill session renders it into the system prompt. Skills with
'disable-model-invocation: true' are left out.

With PATHs (skill directories or SKILL.md files) the skills are read like the reference
'skills-ref to-prompt' does (one unreadable skill aborts with exit 1). Without PATH, the
catalog of the configured roots is printed (sorted by name).

Options:
  --format F   list (default)  'Available skills:' then '- name: description' lines
               agentskills     skills-ref to-prompt output, byte for byte (PATHs in the
                               order given) when no budget applies
               xml             indented <available_skills> with one <skill> per entry
               markdown        '## Available Skills' then '- [○] **name**: description'
               aworld          AWorld's <skills_guide> with one <skill id>…<skill_desc> per
                               skill (the aworld profile's catalog)
               skillbox        AgentScope SkillBox's '## Available Skills' with <usage> and
                               one <skill-id> block per skill (the agentscope profile's catalog)
  --catalog-budget TOKENS
               Fit the catalog in TOKENS (o200k tokens): descriptions are shortened, then
               dropped, then only as many names as fit are listed, and a closing note says
               how many were left out and that skill_search finds them.
               Default: no budget (every skill in full), unless --context-window is given.
  --context-window N
               The model's context window in tokens; without --catalog-budget the budget
               is then 1% of N, as in a session ('skillrt chat' uses 1% of a configured
               window, and 2,000 tokens when no window is configured).
  --preamble   Also print the session's preamble (how to use the skill tools) before the
               catalog; the budget then covers both, as in 'skillrt chat'.
  --for REQUEST
               Print what the model would see for this user request: the system prompt,
               then the user's message with the skills that best match the request listed
               in full before it (when the catalog could not show every skill in full).
               The system prompt does not depend on the request, so prompt caches hit.
  --root DIR   Read DIR instead of the default roots (repeatable; ignored with PATHs).
  -h, --help   Show this help.

Exit codes: 0 printed, 1 a PATH could not be read or a --root does not exist, 2 usage
error.
`,
  options: {
    ...rootOption,
    format: { type: "string", short: "f" },
    "catalog-budget": { type: "string" },
    "context-window": { type: "string" },
    preamble: { type: "boolean" },
    for: { type: "string" },
  },
  async run({ values, positionals }, io) {
    const format = values.format ?? "list";
    if (!isFormat(format)) {
      return usageError(io, "prompt", `unknown --format '${format}' (choose ${FORMATS.join(", ")})`);
    }
    const budget = intFlag(values["catalog-budget"], "catalog-budget");
    if (typeof budget === "object") return usageError(io, "prompt", budget.error);
    const contextWindow = intFlag(values["context-window"], "context-window");
    if (typeof contextWindow === "object") return usageError(io, "prompt", contextWindow.error);

    let catalog: Catalog;
    let served: Awaited<ReturnType<typeof openMcpSkills>> | undefined;
    let given: PromptEntry[] | undefined;
    let code: 0 | 1 = 0;
    if (positionals.length > 0) {
      const read = await readPromptPaths(positionals, io);
      if (!read.ok) {
        io.stderr.write(`skillrt prompt: ${read.message}\n`);
        return 1;
      }
      catalog = read.catalog;
      given = read.entries;
    } else {
      // A missing --root fails (exit 1), but what the other roots hold is still printed.
      ({ catalog, code } = await openCliCatalog("prompt", values.root, io, values.refresh === true));
      // Skills the config's MCP servers serve are shown too (their servers run until the prompt is written).
      served = await openMcpSkills(catalog, io);
      catalog = served.catalog;
    }
    try {
      const preamble = values.preamble === true;
      const unlimited = budget === undefined && contextWindow === undefined;
      const session = createSkillSession({
        catalog,
        catalogFormat: format,
        // No budget unless one is asked for (a session would default to 2,000 tokens, or 1% of the window).
        ...(unlimited ? { catalogBudget: Number.POSITIVE_INFINITY } : {}),
        ...(budget === undefined ? {} : { catalogBudget: budget }),
        ...(contextWindow === undefined ? {} : { contextWindow }),
        ...(preamble ? {} : { preamble: "" }),
      });
      // What a session shows at start: `active: true` skills are loaded (markdown marks them [✓]).
      await session.init();
      // Unbudgeted agentskills is skills-ref `to-prompt` (the session renders the same bytes for the same
      // skills; to-prompt also keeps the PATH order and prints the empty element when there is none).
      const text =
        format === "agentskills" && unlimited && !preamble
          ? `${toPrompt(referenceEntries(session, given))}\n`
          : session.renderer.systemPrompt();
      if (text === "") {
        io.stderr.write("No skills to show (none found, or all hidden with disable-model-invocation).\n");
        return code;
      }
      const request = values.for;
      if (request !== undefined) {
        const matches = await renderRequestSkills(session, request);
        await writeOutput(io.stdout, `${text}\n${USER_RULE}\n${matches.text}${request}\n`);
        return code;
      }
      await writeOutput(io.stdout, text);
      return code;
    } finally {
      await served?.close();
    }
  },
});

/** Separates the system prompt from the user's message in `--for` output. */
const USER_RULE = "--- user message ---";

function isFormat(value: string): value is CatalogFormat {
  return (FORMATS as readonly string[]).includes(value);
}

/** The skills `to-prompt` shows: the PATH entries in the order given, or the roots' catalog, minus hidden skills. */
function referenceEntries(session: SkillSession, given: PromptEntry[] | undefined): PromptEntry[] {
  const visible = session.visibleSkills();
  if (given === undefined) return visible;
  const shown = new Set(visible.map((record) => record.location));
  const hidden = new Set(
    session.catalog
      .list()
      .map((record) => record.location)
      .filter((location) => !shown.has(location)),
  );
  return given.filter((entry) => !hidden.has(entry.location));
}
