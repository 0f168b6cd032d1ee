/** A real skill session over in-memory skills (description `about <name>`), for engine unit tests. */
import { createCatalog } from "../../catalog/create-catalog.js";
import { createSkillSession } from "../../context/create-skill-session.js";
import type { Placement } from "../../context/session-options.js";
import type { SkillSession } from "../../context/skill-session.js";
import { createSkillTools, type SkillTools } from "../../tools/create-skill-tools.js";

/** A session with one memory skill per entry of `skills` (name → body) and its default tools. */
export async function tinySession(
  skills: Record<string, string>,
  placement: Placement = "system",
): Promise<{ session: SkillSession; skillTools: SkillTools }> {
  const catalog = await createCatalog({
    roots: [],
    memory: Object.entries(skills).map(([name, body]) => ({ name, description: `about ${name}`, body })),
  });
  const session = createSkillSession({ catalog, placement });
  return { session, skillTools: createSkillTools(session) };
}
