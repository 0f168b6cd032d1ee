/** Builds the skill tools of a session for the CLI: profile, workspace and executor for `skill_run`. */
import type { SkillSession } from "../../context/skill-session.js";
import type { SkillToolsView } from "../../engine/from-skill-session.js";
import { createExecutor, type ExecutorChoice } from "../../exec/create-executor.js";
import { createWorkspace } from "../../exec/workspace.js";
import { createSkillTools } from "../../tools/create-skill-tools.js";
import type { ProfileName } from "../../tools/profile-types.js";
import { loadCliSkillEnv } from "../load-cli-skill-env.js";

/** CLI choices for the skill tools. */
export interface SkillToolChoices {
  profile: ProfileName;
  executor: ExecutorChoice;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Receives warnings (sandbox fallback, env config). */
  warn: (message: string) => void;
}

/** The skill tools plus the workspace to dispose of when the conversation ends. */
export interface CliSkillTools extends SkillToolsView {
  dispose(): Promise<void>;
}

/**
 * The skill tools for `session` under the chosen profile, with `skill_run` (and script tools) running in
 * a fresh per-session workspace on the chosen executor; `host://` inputs may come from the cwd.
 */
export async function skillToolsFor(
  session: SkillSession,
  choices: SkillToolChoices,
): Promise<CliSkillTools> {
  const skillEnv = await loadCliSkillEnv({ cwd: choices.cwd, env: choices.env, warn: choices.warn });
  const { executor } = createExecutor({ kind: choices.executor });
  const workspace = await createWorkspace({ id: session.id });
  const skillTools = createSkillTools(session, {
    profile: choices.profile,
    run: { workspace, executor, skillEnv, hostDirs: [choices.cwd] },
  });
  return {
    tools: skillTools.tools,
    activeToolNames: () => skillTools.activeToolNames(),
    systemPrompt: () => skillTools.systemPrompt(),
    prepare: () => skillTools.prepare(),
    dispose: () => workspace.dispose(),
  };
}
