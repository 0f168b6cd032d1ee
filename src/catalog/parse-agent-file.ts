/**
 * `parseAgentFile`: one agent definition file (`agents/<name>.md`, Claude Code's format) → an
 * {@link AgentDefinition}: frontmatter `name`, `description`, `model` (`inherit` or an id), `tools`,
 * `disallowedTools`, `skills`, `preload`, `maxSteps` (Claude Code's `maxTurns`), `approval`, `executor`,
 * `shellPreRender`; the Markdown body is the agent's instructions. As in Claude Code, the skills `skills:`
 * names are preloaded into the agent's context (globs, a skillrt extension, only bound its catalog, which
 * the list bounds too). Any other field — Claude Code's `permissionMode`, `color`, `hooks`, … — is ignored
 * with an `agent-field-ignored` warning naming it, never silently. Pure: no fs.
 */
import path from "node:path";
import { z } from "zod";
import {
  type AgentDefinition,
  type AgentSpec,
  agentSpecObject,
  toAgentDefinition,
} from "../config/agent-definition.js";
import { createDiagnostic } from "../spec/create-diagnostic.js";
import { parseSkillMd } from "../spec/parse-skill-md.js";
import type { Diagnostic, FrontmatterValue } from "../spec/types.js";

/** What {@link parseAgentFile} found: the definition (undefined when unusable) and what was wrong. */
export interface ParseAgentResult {
  agent: AgentDefinition | undefined;
  diagnostics: Diagnostic[];
}

/** Frontmatter keys of agent files that skill rules would flag and agents do not share. */
const SKILL_ONLY_CODES = new Set([
  "name-directory-mismatch",
  "unknown-field",
  "name-from-directory",
  "yaml-flow-collection",
]);

/** Repairs a skill gets and an agent does not: an agent needs its frontmatter and its description. */
const AGENT_ERRORS = new Set(["frontmatter-missing", "description-from-body"]);

/** Claude Code's spellings of the fields, mapped to skillrt's (a turn of a subagent is one model call). */
const ALIASES: Record<string, string> = {
  "max-steps": "maxSteps",
  max_steps: "maxSteps",
  maxTurns: "maxSteps",
  "max-turns": "maxSteps",
  max_turns: "maxSteps",
  "disallowed-tools": "disallowedTools",
};

/** Claude Code agent fields skillrt has no equivalent for, with what the agent does instead. */
const CLAUDE_ONLY: Record<string, string> = {
  permissionMode:
    "the agent asks approvals as its parent does ('approval: always' makes that stricter, never looser)",
  mcpServers:
    "the agent is offered its parent's MCP server tools ('tools' and 'disallowedTools' narrow them)",
  hooks: "skillrt runs no hooks",
  memory: "skillrt keeps no memory across an agent's tasks",
  background: "a delegated task always runs to its answer",
  isolation: "the agent's commands run in its own workspace (see 'executor')",
  color: "the terminal shows agents by name",
  effort: "the agent uses its model's defaults",
};

/** Frontmatter keys read without being fields of the definition. */
const READ_KEYS = new Set(["name", "description"]);

/** A `skills` entry that is a name rather than a glob (only names can be preloaded). */
function isPlainName(entry: string): boolean {
  return !/[*?[\]{}!]/.test(entry);
}

/**
 * Parses the agent file at `file` (used in diagnostics; its base name is the fallback name). Never throws:
 * a file without a usable name or description, or with a field of the wrong type, gives `agent: undefined`
 * and an error diagnostic saying which field.
 */
export function parseAgentFile(text: string | Uint8Array, file: string): ParseAgentResult {
  const dirName = path.basename(file).replace(/\.md$/i, "");
  const parsed = parseSkillMd(text, { mode: "lenient", path: file, dirName });
  const diagnostics = parsed.diagnostics
    .filter((d) => !SKILL_ONLY_CODES.has(d.code))
    .map((d) =>
      AGENT_ERRORS.has(d.code)
        ? {
            ...d,
            severity: "error" as const,
            message: `${d.message.replace(/^SKILL\.md/, "The agent file")} Agents need both; the agent is skipped.`,
          }
        : d,
    );
  const skill = parsed.skill;
  if (skill === undefined || diagnostics.some((d) => d.severity === "error"))
    return { agent: undefined, diagnostics };
  const fields: Record<string, unknown> = { description: skill.description, instructions: skill.body };
  const name = (skill.name === "" ? dirName : skill.name).trim();
  for (const [key, value] of Object.entries(skill.frontmatter)) {
    const field = ALIASES[key] ?? key;
    if (READ_KEYS.has(field)) continue;
    if (!(field in agentSpecObject().shape) || field === "instructions") {
      const instead = CLAUDE_ONLY[key];
      diagnostics.push(
        createDiagnostic(
          "agent-field-ignored",
          "warning",
          instead === undefined
            ? `Agent '${name}': field '${key}' is not an agent field skillrt knows; it is ignored.`
            : `Agent '${name}': field '${key}' (Claude Code) has no equivalent in skillrt and is ignored: ${instead}.`,
          file,
        ),
      );
      continue;
    }
    fields[field] =
      field === "maxSteps" ? toNumber(value) : field === "shellPreRender" ? toBoolean(value) : value;
  }
  try {
    const agent = toAgentDefinition(name, fields as AgentSpec, file);
    // Claude Code preloads the skills an agent file lists; globs (skillrt's) only bound the catalog.
    const preload = [...new Set([...(agent.preload ?? []), ...(agent.skills ?? []).filter(isPlainName)])];
    if (preload.length > 0) agent.preload = preload;
    return { agent, diagnostics };
  } catch (error) {
    const issue = error instanceof z.ZodError ? error.issues[0] : undefined;
    const where = issue?.path.join(".") ?? "frontmatter";
    return {
      agent: undefined,
      diagnostics: [
        ...diagnostics,
        createDiagnostic(
          "field-invalid-type",
          "error",
          `Agent '${name}': field '${where}' is invalid (${issue?.message ?? String(error)}); the agent is skipped.`,
          file,
        ),
      ],
    };
  }
}

function toBoolean(value: FrontmatterValue): unknown {
  const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  return text === "true" ? true : text === "false" ? false : value;
}

function toNumber(value: FrontmatterValue): unknown {
  return typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
}
