/** A tiny skill layer (system placement) implementing the engine's interface, for engine unit tests. */
import type { ToolSet } from "ai";
import { tool } from "ai";
import { z } from "zod";
import type { EngineSkillContext, SkillContextEvent } from "../engine-skill-context.js";

/** A tiny skill layer (system placement) implementing the engine's interface. */
export function tinyContext(skills: Record<string, string>): EngineSkillContext & { loaded: Set<string> } {
  const loaded = new Set<string>();
  const listeners = new Set<(e: SkillContextEvent) => void>();
  const tools: ToolSet = {
    skill_load: tool({
      description: "Load a skill",
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        if (skills[name] === undefined) return `unknown skill: ${name}`;
        loaded.add(name);
        for (const l of listeners) l({ type: "skill-load", name, tokens: 3, by: "model" });
        return `loaded ${name}`;
      },
    }),
    skill_unload: tool({
      description: "Unload a skill",
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        loaded.delete(name);
        return `unloaded ${name}`;
      },
    }),
  };
  return {
    loaded,
    tools: () => tools,
    activeToolNames: () => (loaded.size > 0 ? ["skill_load", "skill_unload"] : ["skill_load"]),
    systemPrompt: () =>
      [
        "Available skills:",
        ...Object.keys(skills).map((n) => `- ${n} ${loaded.has(n) ? "[✓]" : "[○]"}`),
        ...[...loaded].map((n) => `[Loaded] ${n}\n${skills[n]}`),
      ].join("\n"),
    loadSkill: async (name, options) => {
      if (skills[name] === undefined) return { ok: false, name, message: `unknown skill: ${name}` };
      loaded.add(name);
      for (const l of listeners) l({ type: "skill-load", name, tokens: 3, by: options?.by ?? "user" });
      return { ok: true, name, messages: [], tokens: 3 };
    },
    rematerialize: () => [...loaded].map((n) => ({ role: "user" as const, content: `[Loaded] ${n}` })),
    unloadSkill: async () => ({ ok: true, message: "" }),
    listSkills: () =>
      Object.keys(skills).map((name) => ({
        name,
        description: `about ${name}`,
        loaded: loaded.has(name),
        tokens: 1,
        userInvocable: true,
      })),
    search: (query, limit) =>
      Object.keys(skills)
        .map((name) => ({ name, score: query.includes(name) ? 5 : 0 }))
        .filter((h) => h.score > 0)
        .slice(0, limit),
    loadedSkills: () => [...loaded],
    ledger: () => ({ counter: "x", entries: [], total: 0, contextWindow: 1000 }),
    snapshot: () => ({ loaded: [...loaded] }),
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
