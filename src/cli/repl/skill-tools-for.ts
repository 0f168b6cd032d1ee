/** Builds the skill tools of a session for the CLI: profile, workspace and executor for `skill_run`. */
import type { SkillSession } from "../../context/skill-session.js";
import type { SkillToolsView } from "../../engine/from-skill-session.js";
import { createExecutor, type ExecutorChoice } from "../../exec/create-executor.js";
import { createWorkspace } from "../../exec/workspace.js";
import { createSkillTools } from "../../tools/create-skill-tools.js";
import type { ProfileName } from "../../tools/profile-types.js";
import type { CliRunSettings } from "../load-cli-config.js";

/** CLI choices for the skill tools. */
export interface SkillToolChoices {
  profile: ProfileName;
  executor: ExecutorChoice;
  /** Secrets, command policy, host directories, artifact store, timeouts (see `cliRunSettings`). */
  run: CliRunSettings;
}

/** The skill tools plus the workspace to dispose of when the conversation ends. */
export interface CliSkillTools extends SkillToolsView {
  dispose(): Promise<void>;
}

/**
 * The skill tools for `session` under the chosen profile, with `skill_run` (and script tools) running in
 * a fresh per-session workspace on the chosen executor, with the configured run settings.
 */
export async function skillToolsFor(
  session: SkillSession,
  choices: SkillToolChoices,
): Promise<CliSkillTools> {
  const { executor } = createExecutor({ kind: choices.executor });
  const workspace = await createWorkspace({ id: session.id });
  const skillTools = createSkillTools(session, {
    profile: choices.profile,
    run: { ...choices.run, workspace, executor },
  });
  return {
    tools: skillTools.tools,
    activeToolNames: () => skillTools.activeToolNames(),
    systemPrompt: () => skillTools.systemPrompt(),
    prepare: () => skillTools.prepare(),
    dispose: () => workspace.dispose(),
  };
}
