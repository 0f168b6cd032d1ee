/**
 * `parseAgentFile`: one agent definition file (`agents/<name>.md`, Claude Code's format) → an
 * {@link AgentDefinition}: frontmatter `name`, `description`, `model` (`inherit` or an id), `tools`,
 * `skills`, `preload`, `maxSteps`, `approval`, `executor`, `shellPreRender`; the Markdown body is the
 * agent's instructions. Pure: no fs.
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

/** Claude Code's spellings of the fields, mapped to skillrt's. */
const ALIASES: Record<string, string> = { "max-steps": "maxSteps", max_steps: "maxSteps" };

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
  for (const [key, value] of Object.entries(skill.frontmatter)) {
    const field = ALIASES[key] ?? key;
    if (!(field in agentSpecObject().shape) || field === "description" || field === "instructions") continue;
    fields[field] =
      field === "maxSteps" ? toNumber(value) : field === "shellPreRender" ? toBoolean(value) : value;
  }
  const name = (skill.name === "" ? dirName : skill.name).trim();
  try {
    return { agent: toAgentDefinition(name, fields as AgentSpec, file), diagnostics };
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
