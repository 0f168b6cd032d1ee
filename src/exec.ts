/**
 * `skillrt/exec`: where `skill_run` runs — executors (local, bubblewrap sandbox, container, any AI SDK
 * `SandboxSession`), workspaces, skill runs and script tools, artifacts, and per-skill environments.
 */

export {
  type LoadSkillEnvConfigOptions,
  loadSkillEnvConfig,
  resolveSkillEnv,
  type SkillEnvConfig,
} from "./config/load-skill-env-config.js";
export { ExecConfigFile } from "./config/skillrt-config.js";
export { WorkspaceError } from "./errors/workspace-error.js";
export { type ArtifactStore, createFsArtifactStore } from "./exec/artifact-store.js";
export type { CommandPolicy } from "./exec/command-policy.js";
export { type CreateExecutorOptions, createExecutor, type ExecutorChoice } from "./exec/create-executor.js";
export { createWorkspace } from "./exec/create-workspace.js";
export type { ExecRequest, ExecResult, Executor, ExecutorKind } from "./exec/executor.js";
export type {
  RunEnvironment,
  RunPolicy,
  RunSettings,
  RunSetup,
  SkillLookup,
  SkillRunConfig,
  SkillRunContext,
} from "./exec/run-config.js";
export { runSkillCommand, type SkillRunRequest, type SkillRunResult } from "./exec/run-skill-command.js";
export {
  type BubblewrapSandboxSession,
  type BubblewrapSandboxSessionOptions,
  createBubblewrapSandboxSession,
} from "./exec/sandbox-session-bubblewrap.js";
export {
  createSandboxSessionExecutor,
  type SandboxSessionExecutorOptions,
} from "./exec/sandbox-session-executor.js";
export { listScriptTools, runScriptTool, type ScriptTool } from "./exec/script-tools.js";
export type { Workspace } from "./exec/workspace.js";
export type { NotKeptFile, WorkspaceFileLimits } from "./exec/workspace-files.js";
export { SkillRunInput } from "./tools/skill-run-input.js";
export { SkillRunOutput, SkillRunOutputFile } from "./tools/skill-run-output-schema.js";
