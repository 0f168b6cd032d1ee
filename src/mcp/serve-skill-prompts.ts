/**
 * One MCP prompt per user-invocable skill, the MCP form of a `/skill-name args` slash command: name and
 * description are the skill's, the optional `args` argument fills `$ARGUMENTS` / `$0` … and the prompt is
 * the loaded skill (its `<skill_content>` block) as one user message. Loading goes through the session
 * (`by: "user"`), so the skill's docs and scripts are then available to the tools.
 *
 * `prompts/list` pages like `resources/list` and reads one prompt table: each skill record's prompt is
 * made once and shared by every session over the catalog (an HTTP server holds one per client), instead of
 * each session registering a prompt (and an argument schema) per skill.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  McpError,
  type Prompt,
} from "@modelcontextprotocol/sdk/types.js";
import type { SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";
import { decodeCursor, pageOf } from "./page-cursor.js";

/** Keeps the client's prompt list in step with the catalog. */
export interface ServedSkillPrompts {
  /** Tells the client the prompt list may have changed (after a watched catalog changed). */
  sync(): void;
}

/** Prompts per `prompts/list` page (default). */
export const DEFAULT_PROMPTS_PER_PAGE = 100;

const DEFAULT_ARGS_DESCRIPTION = "Arguments for the skill ($ARGUMENTS, $0, $1, … in its instructions).";

/** The prompt of each record, made once for every session (records are the catalog's, shared). */
const prompts = new WeakMap<SkillRecord, Prompt>();

function promptOf(record: SkillRecord): Prompt {
  let prompt = prompts.get(record);
  if (prompt === undefined) {
    prompt = {
      name: record.name,
      description: record.description,
      arguments: [{ name: "args", description: argumentHint(record), required: false }],
    };
    prompts.set(record, prompt);
  }
  return prompt;
}

/**
 * Serves the prompts of `session`'s user-invocable skills on `mcp` (call before `connect`). `afterLoad`
 * runs after each prompt loads a skill (the server uses it to offer the skill's script tools).
 */
export function serveSkillPrompts(
  mcp: McpServer,
  session: SkillSession,
  afterLoad: () => Promise<void>,
  promptsPerPage = DEFAULT_PROMPTS_PER_PAGE,
): ServedSkillPrompts {
  mcp.server.registerCapabilities({ prompts: { listChanged: true } });

  mcp.server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    const offset = decodeCursor("prompts/list", request.params?.cursor);
    const { page, nextCursor } = pageOf(
      "prompts/list",
      session.userInvocableSkills(),
      offset,
      promptsPerPage,
    );
    const listed = page.map(promptOf);
    return nextCursor === undefined ? { prompts: listed } : { prompts: listed, nextCursor };
  });

  mcp.server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const { name } = request.params;
    const record = session.userInvocableSkills().find((r) => r.name === name);
    if (record === undefined) throw new McpError(ErrorCode.InvalidParams, `Prompt ${name} not found`);
    const args = request.params.arguments?.["args"];
    if (args !== undefined && typeof args !== "string")
      throw new McpError(ErrorCode.InvalidParams, `Prompt ${name}: the argument 'args' must be a string.`);
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
  });

  return {
    sync() {
      void mcp.server.sendPromptListChanged().catch(() => undefined);
    },
  };
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
