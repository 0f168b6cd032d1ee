/** The chat REPL's `/commands`. Each writes its output and says whether the REPL should go on. */
import type { LanguageModel } from "ai";
import type { Catalog } from "../../catalog/types.js";
import type { ModelConfig } from "../../config/model-config.js";
import { listSkills } from "../../context/list-skills.js";
import { CONVERSATION_NAMESPACE } from "../../engine/create-skill-agent.js";
import type { EngineEvent } from "../../engine/engine-event.js";
import { firstUserText } from "../../engine/first-user-text.js";
import type { ToolSources } from "../../engine/open-tool-sources.js";
import { loadConversation } from "../../engine/saved-conversation.js";
import type { SkillAgent } from "../../engine/skill-agent.js";
import type { SkillBodyCosts } from "../../engine/skill-body-costs.js";
import type { SessionStore } from "../../store/session-store.js";
import { toolDefinitionTokens } from "../../tools/tool-definition-tokens.js";
import type { Style } from "../create-style.js";
import { formatContext, formatSkills, formatTools } from "./format-context.js";

/** Text of `/help`. */
export const REPL_HELP = `Commands:
  /skills              list skills ([✓] loaded, [○] not) with their body and catalog token costs
  /NAME [args]         run a skill: load it with the arguments ($ARGUMENTS, $0, $1, …), then answer
  /skill NAME [args]   the same; without arguments it only loads the skill for the next messages
  /unload NAME         unload a skill
  /attach PATH         send a file with your next message (staged into the workspace's work/inputs/)
  /context             tokens in context: catalog, bodies, docs, history, free
  /reload              re-scan the skill folders now (changes on disk are picked up as they happen)
  /new                 start a new conversation
  /sessions            list saved conversations
  /help                this help
  /exit                quit (Ctrl-D works too)
Mention $name in a message to load that skill before the model answers.
Ctrl-C cancels the current answer; at the prompt, press it twice to quit.
`;

/** The parts the chat's agent was composed from, which commands like `/sessions` and `/reload` use. */
export interface ChatParts {
  catalog: Catalog;
  model: LanguageModel;
  modelConfig?: ModelConfig | undefined;
  /** Where conversations are saved (`/sessions`); none: not saved. */
  store?: SessionStore | undefined;
  /** The MCP servers and host tools (`/context`). */
  toolSources?: ToolSources | undefined;
}

/** What a slash command runs against: the agent, its parts, and the body costs measured so far. */
export interface ChatContext extends ChatParts {
  agent: SkillAgent;
  bodyCosts: SkillBodyCosts;
  /** Shows the events a command causes (a `context: fork` skill's child agent), as a turn's are shown. */
  onEvent?: ((event: EngineEvent) => void) | undefined;
}

/**
 * Outcome of a slash command: go on reading, exit, or run a turn with `input` as the user's message (a
 * skill invoked as `/NAME args`, already loaded with its arguments).
 */
export type SlashOutcome = "continue" | "exit" | { turn: string };

/** Splits `/name rest` into the command name and the rest (trimmed). */
export function parseSlash(line: string): { name: string; rest: string } {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(line.trim());
  return { name: match?.[1] ?? "", rest: (match?.[2] ?? "").trim() };
}

/**
 * The refusal for a skill that exists but has `user-invocable: false`: people cannot load it; the model
 * still can (when it is visible to the model) if a task needs it.
 */
export function notUserInvocable(name: string): string {
  return (
    `Skill '${name}' cannot be loaded from the chat: it sets 'user-invocable: false'. ` +
    "The model can still load it when a task needs it."
  );
}

/**
 * Loads `NAME [args]` for the user. With `run` (`/NAME`, `/skill NAME args`), a loaded skill is then
 * invoked: the outcome is a turn whose message is the command as typed, so the model answers with the
 * substituted body in context, as Claude Code, Cursor and opencode do.
 */
async function loadSkill(
  agent: SkillAgent,
  onEvent: ((event: EngineEvent) => void) | undefined,
  out: NodeJS.WritableStream,
  style: Style,
  rest: string,
  run: "always" | "with-args",
): Promise<SlashOutcome> {
  const [name = "", ...args] = rest.split(/\s+/);
  if (name === "") {
    out.write("Usage: /skill NAME [args]\n");
    return "continue";
  }
  const argText = rest.slice(name.length).trim();
  const listing = listSkills(agent.session).find((s) => s.name === name);
  if (listing !== undefined && !listing.userInvocable) {
    out.write(`${style.red(notUserInvocable(name))}\n`);
    return "continue";
  }
  const outcome = await agent.loadSkill(name, {
    ...(args.length > 0 ? { args: argText } : {}),
    ...(onEvent === undefined ? {} : { onEvent }),
  });
  if (!outcome.ok) {
    out.write(`${style.red(outcome.message)}\n`);
    return "continue";
  }
  const tokens = outcome.tokens.toLocaleString("en-US");
  // A `context: fork` skill ran in a child (shown by its events): nothing was loaded, its answer was added.
  out.write(
    outcome.agent === undefined
      ? `${style.green(`+ loaded ${outcome.name}`)} (${tokens} tokens)\n`
      : `${style.green(`+ ran ${outcome.name} in agent ${outcome.agent}`)} (its answer: ${tokens} tokens)\n`,
  );
  if (run === "with-args" && argText === "") return "continue";
  return { turn: `/${outcome.name}${argText === "" ? "" : ` ${argText}`}` };
}

/**
 * Runs one `/command` line against the conversation. Unknown names that are skills the user may invoke
 * load that skill and run a turn with it (`/pdf-tools report.pdf`); other unknown names print a hint.
 */
export async function runSlashCommand(
  line: string,
  chat: ChatContext,
  out: NodeJS.WritableStream,
  style: Style,
  width = 100,
): Promise<SlashOutcome> {
  const { name, rest } = parseSlash(line);
  const { agent } = chat;
  switch (name) {
    case "exit":
    case "quit":
      return "exit";
    case "help":
    case "?":
      out.write(REPL_HELP);
      return "continue";
    case "skills": {
      const skills = listSkills(agent.session);
      const unloaded = skills.filter((s) => !s.loaded).map((s) => s.name);
      const bodies = await chat.bodyCosts.measure(agent.session, unloaded);
      out.write(formatSkills(skills, width, bodies));
      return "continue";
    }
    case "skill":
      return await loadSkill(agent, chat.onEvent, out, style, rest, "with-args");
    case "unload": {
      if (rest === "") {
        out.write("Usage: /unload NAME\n");
        return "continue";
      }
      const result = await agent.unloadSkill(rest);
      out.write(result.ok ? `${style.dim(`- unloaded ${rest}`)}\n` : `${style.red(result.message)}\n`);
      return "continue";
    }
    case "context": {
      // The ledger with the history measured now, as the next request would carry it.
      agent.session.history.measure(agent.history());
      // The host's tools (agent_run with agents) go with every request, beside the gated skill tools.
      const tools = await toolDefinitionTokens(
        { ...agent.skillTools.allTools(), ...agent.hostTools },
        [...agent.skillTools.activeToolNames(), ...Object.keys(agent.hostTools)],
        agent.session.counter,
      );
      out.write(formatContext(agent.session.ledger(), tools));
      out.write(formatTools(agent.skillTools.gating(), chat.toolSources?.servers() ?? []));
      return "continue";
    }
    case "reload": {
      await chat.catalog.refresh();
      agent.session.renderer.refreshCatalog();
      out.write(`Re-scanned: ${listSkills(agent.session).length} skills.\n`);
      return "continue";
    }
    case "new":
      await agent.save();
      await agent.reset();
      out.write(`New conversation ${agent.sessionId}.\n`);
      return "continue";
    case "sessions": {
      const sessions = (await chat.store?.list({ namespace: CONVERSATION_NAMESPACE })) ?? [];
      if (sessions.length === 0) out.write("No saved conversations.\n");
      for (const s of sessions) {
        const mark = s.id === agent.sessionId ? "*" : " ";
        // The first thing the user said tells conversations apart better than their ids.
        const saved =
          s.corrupt === undefined && chat.store !== undefined
            ? await loadConversation(chat.store, s.id, CONVERSATION_NAMESPACE).catch(() => undefined)
            : undefined;
        const first = saved === undefined ? undefined : firstUserText(saved.messages, 60);
        out.write(
          `${mark} ${s.id}  ${s.updatedAt}${first === undefined ? "" : `  ${first}`}${s.corrupt === undefined ? "" : `  (corrupt: ${s.corrupt})`}\n`,
        );
      }
      out.write("Resume one with: skillrt chat --session ID\n");
      return "continue";
    }
    default: {
      const skill = listSkills(agent.session).find((s) => s.name === name);
      if (skill?.userInvocable === true) {
        return await loadSkill(agent, chat.onEvent, out, style, `${name} ${rest}`.trim(), "always");
      }
      if (skill !== undefined) {
        out.write(`${style.red(notUserInvocable(name))}\n`);
        return "continue";
      }
      out.write(`Unknown command /${name}. Type /help for the list.\n`);
      return "continue";
    }
  }
}
