/** `unload`: a loaded skill leaves the context with its docs and reads. */
import { isFailure, resolveSkill, type SessionCore } from "./session-core.js";
import type { UnloadResult } from "./session-results.js";
import { removeSkill } from "./session-state.js";

/** Unloads a skill with its docs and reads (see {@link SkillSession.unload}). */
export function unloadSkill(
  core: SessionCore,
  name: string,
  options: { by?: "model" | "user" } = {},
): UnloadResult {
  const { state } = core;
  if (!state.skills.has(name)) {
    const record = resolveSkill(core, name);
    if (isFailure(record)) return record;
    return {
      ok: false,
      code: "not-loaded",
      message: `Skill '${name}' is not currently loaded. Loaded skills: [${[...state.skills.keys()].join(", ")}].`,
    };
  }
  removeSkill(state, name);
  core.emit({ type: "skill-unload", name, reason: "unload", by: options.by ?? "model" });
  return { ok: true, name, loaded: [...state.skills.keys()] };
}
