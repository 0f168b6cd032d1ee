/**
 * The profile's vocabulary as the session writes it for the model: the names of the skill tools, and the
 * shape of a load call (synthetic load calls: opening messages, user loads).
 */

/** A tool call as the model would make it: the tool's name and its input. */
export interface ToolCallShape {
  toolName: string;
  input: Record<string, unknown>;
}

/** Builds the input of the profile's load tool for `name` (and arguments, where the tool takes them). */
export type LoadInputShape = (name: string, args?: string) => Record<string, unknown>;

/** Names of the skill tools the model sees, used by the preamble and by messages written for the model. */
export interface SkillToolNames {
  /** Default `skill_load`. */
  load: string;
  /** Reads a skill file. Omitted when the profile has no such tool. */
  read?: string;
  unload?: string;
  selectDocs?: string;
  /** Always `skill_search` in every profile. */
  search?: string;
  run?: string;
  /**
   * What the preamble tells the model to give the load tool: default `its name`; AgentScope loads by the
   * skill id its catalog lists (`<skill-id>`), not by the name.
   */
  loadArgument?: string;
}
