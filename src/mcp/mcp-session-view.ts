/**
 * The session as the MCP server's tools see it. One difference from the engine, because an MCP server
 * cannot see the client's conversation: a load of a skill that is already loaded reloads it, so the client
 * always receives the full instructions (a new chat in the same client would otherwise get "already
 * loaded"). Failures need no tracking here: every tool result says whether it failed (`isError`).
 */
import type { SkillSession } from "../context/skill-session.js";

/** `session` with reload-on-load (see the module comment). Shares its state. */
export function mcpSessionView(session: SkillSession): SkillSession {
  return {
    ...session,
    async load(name, options) {
      if (session.loadedSkill(name) !== undefined) session.unload(name);
      return session.load(name, options);
    },
  };
}
