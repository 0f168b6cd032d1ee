// README example: an agent with Agent Skills in ~20 lines. In your project, import from "skillrt".
import type { LanguageModel } from "ai";
import {
  createCatalog,
  createSkillSession,
  createSkillTools,
  fromSkillSession,
  loadModelConfig,
  resolveModel,
  runAgent,
} from "../src/index.js";

export async function askWithSkills(question: string, model?: LanguageModel): Promise<string> {
  const catalog = await createCatalog({ roots: ["examples/skills"] }); // folders holding SKILL.md
  const session = createSkillSession({ catalog }); // what is loaded, budgets, ledger
  const context = fromSkillSession(session, createSkillTools(session)); // skill_load, skill_read, …
  const result = await runAgent({
    // Env/config: OPENAI_BASE_URL + AGENT_MODEL, ANTHROPIC_API_KEY, … (default: a local Ollama)
    model: model ?? resolveModel(await loadModelConfig()),
    context,
    messages: [{ role: "user", content: question }],
    onEvent: (event) => {
      if (event.type === "tool-call") process.stderr.write(`→ ${event.toolName}\n`);
    },
  });
  return result.text;
}
