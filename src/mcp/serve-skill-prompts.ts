/**
 * One MCP prompt per user-invocable skill, the MCP form of a `/skill-name args` slash command: name and
 * description are the skill's, the optional `args` argument fills `$ARGUMENTS` / `$0` … and the prompt is
 * the loaded skill (its `<skill_content>` block) as one user message. Loading goes through the session
 * (`by: "user"`), so the skill's docs and scripts are then available to the tools.
 */
import type { McpServer, RegisteredPrompt } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, type GetPromptResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";

/** Keeps the prompt list in step with the catalog. */
export interface ServedSkillPrompts {
  /** Adds, updates and removes prompts to match the session's user-invocable skills (each change notifies the client). */
  sync(): void;
}

const DEFAULT_ARGS_DESCRIPTION = "Arguments for the skill ($ARGUMENTS, $0, $1, … in its instructions).";

/**
 * Registers the prompts of `session`'s user-invocable skills on `mcp` (call before `connect`: the prompt
 * handlers are installed even when there are no prompts yet). `afterLoad` runs after each prompt loads a
 * skill (the server uses it to offer the skill's script tools).
 */
export function serveSkillPrompts(
  mcp: McpServer,
  session: SkillSession,
  afterLoad: () => Promise<void>,
): ServedSkillPrompts {
  const registered = new Map<string, { prompt: RegisteredPrompt; description: string; hint: string }>();

  // Install the prompts/list and prompts/get handlers (and the capability) now: they cannot be added
  // after connect, and skills may appear later when the catalog is watched.
  mcp.registerPrompt("skillrt-init", {}, () => ({ messages: [] })).remove();

  const register = (record: SkillRecord): void => {
    const hint = argumentHint(record);
    const prompt = mcp.registerPrompt(
      record.name,
      {
        description: record.description,
        argsSchema: { args: z.string().optional().describe(hint) },
      },
      async ({ args }): Promise<GetPromptResult> => {
        const result = await session.load(record.name, {
          by: "user",
          ...(args !== undefined && args !== "" ? { args } : {}),
        });
        if (!result.ok) throw new McpError(ErrorCode.InvalidParams, result.message);
        await afterLoad();
        const text = result.notice === "" ? result.content : `${result.content}\n\n${result.notice}`;
        return {
          description: result.record.description,
          messages: [{ role: "user", content: { type: "text", text } }],
        };
      },
    );
    registered.set(record.name, { prompt, description: record.description, hint });
  };

  const sync = (): void => {
    const wanted = new Map(session.userInvocableSkills().map((r) => [r.name, r]));
    for (const [name, entry] of registered) {
      const record = wanted.get(name);
      if (record === undefined) {
        entry.prompt.remove();
        registered.delete(name);
      } else if (record.description !== entry.description || argumentHint(record) !== entry.hint) {
        entry.prompt.remove();
        registered.delete(name);
        register(record);
      }
    }
    for (const [name, record] of wanted) if (!registered.has(name)) register(record);
  };

  sync();
  return { sync };
}

/**
 * The skill's `argument-hint` (Claude Code frontmatter) as the argument's description. YAML reads the
 * unquoted `argument-hint: [issue-number]` as a list; it is shown as written.
 */
function argumentHint(record: SkillRecord): string {
  const value = record.extras["argument-hint"];
  const hint = Array.isArray(value)
    ? value.map((v) => `[${String(v)}]`).join(" ")
    : typeof value === "string"
      ? value.trim()
      : "";
  return hint !== "" ? `Arguments for the skill, e.g. ${hint}` : DEFAULT_ARGS_DESCRIPTION;
}
