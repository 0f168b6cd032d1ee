import { SkillrtError } from "./skillrt-error.js";

/**
 * Thrown by `createWorkspace` (and the agent that makes one) when no private workspace can be made:
 * the message says which path and why (a symlinked, foreign-owned or group/other-accessible base).
 */
export class WorkspaceError extends SkillrtError {
  constructor(message: string) {
    super({ code: "workspace-unusable", message });
    this.name = "WorkspaceError";
  }
}
