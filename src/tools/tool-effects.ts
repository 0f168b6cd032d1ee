/**
 * What calling a skill tool does to the world, for hosts that ask before acting and for MCP tool
 * annotations (`readOnlyHint`, `destructiveHint`, `openWorldHint`).
 */
import type { ExecutorKind } from "../exec/executor.js";

/** The effects of one tool. */
export interface ToolEffects {
  /**
   * True for disclosure tools (load, read, list, select, unload, search): they change only which skill
   * content the conversation sees, never a file or a process.
   */
  readOnly: boolean;
  /** True for tools that run commands (`skill_run`, script tools): a command may change or delete files. */
  destructive: boolean;
  /** True when a command may reach beyond the workspace (any executor but the network-less sandbox). */
  openWorld: boolean;
}

/** The effects of a disclosure tool or of a command tool run by `executor`. */
export function toolEffects(kind: "disclose" | "run", executor?: ExecutorKind): ToolEffects {
  if (kind === "disclose") return { readOnly: true, destructive: false, openWorld: false };
  return { readOnly: false, destructive: true, openWorld: executor !== "sandbox" };
}
