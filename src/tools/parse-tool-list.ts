/**
 * AWorld's `tool_list` frontmatter field: which tools of which MCP-style servers a skill needs,
 * `{server: []}` (every tool of the server) or `{server: [a, b]}` (only those).
 */

/** Server → the tool names a skill asks for; `"all"` when it asks for every tool of the server. */
export type ToolListFilter = Map<string, Set<string> | "all">;

const ALL_MARKERS = new Set(["", "null", "~", "[]", "*"]);

/**
 * Parses a raw `tool_list` value as the lenient parser leaves it (every scalar a string). Accepted shapes:
 * a mapping `{server: [tools]}` where an empty list, an empty value, `null`, `~` or `*` means every tool;
 * a JSON string of that mapping (AWorld allows it); a list of server names (every tool of each). Anything
 * else (including a string that is not JSON) is ignored, as AWorld treats it as `{}`.
 */
export function parseToolList(raw: unknown): ToolListFilter {
  const filter: ToolListFilter = new Map();
  let value = raw;
  if (typeof value === "string") {
    const text = value.trim();
    if (!text.startsWith("{") && !text.startsWith("[")) return filter;
    try {
      value = JSON.parse(text);
    } catch {
      return filter;
    }
  }
  if (Array.isArray(value)) {
    for (const server of value)
      if (typeof server === "string" && server.trim() !== "") filter.set(server.trim(), "all");
    return filter;
  }
  if (typeof value !== "object" || value === null) return filter;
  for (const [server, tools] of Object.entries(value)) {
    const names = toolNames(tools);
    if (names !== undefined) filter.set(server, names);
  }
  return filter;
}

function toolNames(tools: unknown): Set<string> | "all" | undefined {
  if (tools === null || tools === undefined) return "all";
  if (typeof tools === "string") {
    const text = tools.trim();
    if (ALL_MARKERS.has(text)) return "all";
    return new Set(text.split(/[\s,]+/).filter((t) => t !== ""));
  }
  if (Array.isArray(tools)) {
    const names = tools
      .filter((t): t is string => typeof t === "string" && t.trim() !== "")
      .map((t) => t.trim());
    return names.length === 0 ? "all" : new Set(names);
  }
  return undefined;
}

/**
 * Merges the filters of every loaded skill: lists for one server are united, and `"all"` for a server wins
 * over any specific list (AWorld's `skill_translate_tools`).
 */
export function mergeToolLists(filters: ToolListFilter[]): ToolListFilter {
  const merged: ToolListFilter = new Map();
  for (const filter of filters) {
    for (const [server, names] of filter) {
      const current = merged.get(server);
      if (current === "all" || names === "all") merged.set(server, "all");
      else merged.set(server, new Set([...(current ?? []), ...names]));
    }
  }
  return merged;
}
