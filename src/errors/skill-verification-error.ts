import { SkillrtError } from "./skillrt-error.js";

/**
 * Thrown when content an MCP server served for a skill is not what its entry promised (a digest or
 * frontmatter mismatch, a file the entry does not list). The content was not used; tools turn it into a
 * tool error for the model, and the entry was refreshed from the server (`skills/get`) before it was thrown.
 */
export class SkillVerificationError extends SkillrtError {
  readonly skillName: string;
  /** The host's label of the server. */
  readonly server: string;
  readonly uri: string;

  constructor({
    name,
    server,
    uri,
    reason,
    refreshed,
  }: { name: string; server: string; uri: string; reason: string; refreshed: boolean }) {
    const next = refreshed
      ? "the skill's entry was refreshed from the server (skills/get): try again"
      : "the server could not refresh the skill's entry";
    super({
      code: "skill-verification-failed",
      message: `${uri} from MCP server '${server}' failed verification: ${reason}. Its content was not used; ${next}`,
    });
    this.name = "SkillVerificationError";
    this.skillName = name;
    this.server = server;
    this.uri = uri;
  }

  static override isInstance(error: unknown): error is SkillVerificationError {
    return SkillrtError.isInstance(error) && error.code === "skill-verification-failed";
  }
}
