import { rootOption } from "../cli-roots.js";
import { defineCommand, usageError } from "../define-command.js";
import { intFlag } from "../int-flag.js";
import { openCliCatalog } from "../open-cli-catalog.js";
import { openMcpSkills } from "../open-mcp-skills.js";
import { terminalWidth, truncateText } from "../terminal-width.js";
import { writeJson, writeOutput } from "../write-output.js";

/** Default number of results of `skillrt search`. */
const DEFAULT_LIMIT = 10;

/** `skillrt search`: rank skills against a query. */
export const searchCommand = defineCommand({
  name: "search",
  summary: "Find skills matching a query (ranked)",
  usage: `Usage: skillrt search QUERY... [--limit N] [--root DIR]... [--json]

Rank skills by how well their name, description, when_to_use and tags match QUERY
(lexical BM25; several words are one query).

Options:
  --limit N    At most N results (default ${DEFAULT_LIMIT}).
  --root DIR   Search DIR instead of the default roots (repeatable).
  --json       Print {"results": [{"name", "description", "location", "score"}]}.
  -h, --help   Show this help.

Exit codes: 0 searched (also with no results), 1 a --root does not exist, 2 usage error.
`,
  options: { ...rootOption, json: { type: "boolean" }, limit: { type: "string" } },
  minPositionals: 1,
  async run({ values, positionals }, io) {
    const query = positionals.join(" ").trim();
    if (query === "") return usageError(io, "search", "QUERY is empty");
    const limit = intFlag(values.limit, "limit") ?? DEFAULT_LIMIT;
    if (typeof limit === "object") return usageError(io, "search", limit.error);
    // A missing --root fails (exit 1), but the other roots are still searched.
    const opened = await openCliCatalog("search", values.root, io, values.refresh === true);
    const { code } = opened;
    // Skills the config's MCP servers serve are searched too (their `skills/list` entries; no file read).
    const served = await openMcpSkills(opened.catalog, io);
    const hits = await served.catalog.search(query, limit).finally(() => served.close());
    if (values.json === true) {
      await writeJson(io.stdout, {
        results: hits.map((hit) => ({
          name: hit.record.name,
          description: hit.record.description,
          location: hit.record.location,
          score: hit.score,
        })),
      });
      return code;
    }
    if (hits.length === 0) {
      io.stderr.write(`No skills match '${query}'.\n`);
      return code;
    }
    const scores = hits.map((hit) => hit.score.toFixed(2));
    const scoreWidth = Math.max(...scores.map((s) => s.length));
    const nameWidth = Math.max(...hits.map((hit) => hit.record.name.length));
    const width = terminalWidth(io.stdout, io.env);
    const descWidth = width === undefined ? undefined : Math.max(width - scoreWidth - nameWidth - 4, 10);
    const lines = hits.map(
      (hit, i) =>
        `${(scores[i] ?? "").padStart(scoreWidth)}  ${hit.record.name.padEnd(nameWidth)}  ${truncateText(hit.record.description, descWidth)}`,
    );
    await writeOutput(io.stdout, `${lines.join("\n")}\n`);
    return code;
  },
});
