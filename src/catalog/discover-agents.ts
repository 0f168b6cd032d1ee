/**
 * `discoverAgents`: the agent definition files next to each skills root — `<root>/../agents/*.md`, so
 * `.claude/skills` pairs with `.claude/agents`, `.agents/skills` with `.agents/agents` and `skills/` with
 * `agents/` — in the roots' precedence order (project before user before extra).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { AgentDefinition } from "../config/agent-definition.js";
import { createDiagnostic } from "../spec/create-diagnostic.js";
import type { Diagnostic } from "../spec/types.js";
import { parseAgentFile } from "./parse-agent-file.js";
import type { SkillRoot } from "./types.js";

/** Largest agent file read, in bytes (an agent's instructions are a page, not a book). */
const MAX_AGENT_FILE_BYTES = 256 * 1024;

/** What {@link discoverAgents} found. */
export interface DiscoveredAgents {
  /** By name; the first root's definition wins a name collision. */
  agents: Record<string, AgentDefinition>;
  diagnostics: Diagnostic[];
}

/** The `agents/` folder that sits next to the skills root `root` (its sibling). */
export function agentsDirOf(root: string): string {
  return path.join(path.dirname(path.resolve(root)), "agents");
}

/**
 * Reads `agents/*.md` next to each of `roots` (a missing folder is silently empty; each folder is read
 * once even when several roots share it). A name already defined by an earlier root is skipped with a
 * `name-shadowed` warning; unreadable or invalid files are diagnostics, never exceptions. A plugin's agents
 * (`<plugin>/agents/*.md`, see `find-plugins.ts`) are named `plugin:agent`.
 */
export async function discoverAgents(
  roots: ReadonlyArray<string | SkillRoot>,
  options: {
    abortSignal?: AbortSignal;
    /** Plugins whose `agents/*.md` are theirs, named `plugin:agent` (after the roots' agents). */
    plugins?: ReadonlyArray<{ name: string; dir: string }>;
  } = {},
): Promise<DiscoveredAgents> {
  const agents: Record<string, AgentDefinition> = {};
  const diagnostics: Diagnostic[] = [];
  const folders: { dir: string; prefix: string }[] = [];
  for (const root of roots)
    folders.push({ dir: agentsDirOf(typeof root === "string" ? root : root.path), prefix: "" });
  for (const plugin of options.plugins ?? [])
    folders.push({ dir: path.join(plugin.dir, "agents"), prefix: `${plugin.name}:` });
  const seen = new Set<string>();
  for (const { dir, prefix } of folders) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    options.abortSignal?.throwIfAborted();
    let names: string[];
    try {
      names = (await readdir(dir, { withFileTypes: true }))
        .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && /\.md$/i.test(entry.name))
        .map((entry) => entry.name)
        .sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const read = await readAgentText(file);
      if (typeof read !== "string") {
        diagnostics.push(read);
        continue;
      }
      const parsed = parseAgentFile(read, file);
      diagnostics.push(...parsed.diagnostics);
      const agent =
        parsed.agent === undefined ? undefined : { ...parsed.agent, name: prefix + parsed.agent.name };
      if (agent === undefined) continue;
      const first = agents[agent.name];
      if (first !== undefined) {
        diagnostics.push(
          createDiagnostic(
            "name-shadowed",
            "warning",
            `Agent '${agent.name}' is also defined in ${first.source}, which wins; this one is ignored.`,
            file,
          ),
        );
        continue;
      }
      agents[agent.name] = agent;
    }
  }
  return { agents, diagnostics };
}

async function readAgentText(file: string): Promise<string | Diagnostic> {
  try {
    const bytes = await readFile(file);
    if (bytes.byteLength > MAX_AGENT_FILE_BYTES)
      return createDiagnostic(
        "file-too-large",
        "warning",
        `Agent file is ${bytes.byteLength} bytes, over the ${MAX_AGENT_FILE_BYTES}-byte limit; skipped.`,
        file,
      );
    return bytes.toString("utf8");
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : "unreadable";
    return createDiagnostic("file-unreadable", "warning", `Agent file could not be read (${reason}).`, file);
  }
}
