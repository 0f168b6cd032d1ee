import { SkillrtError } from "./skillrt-error.js";

/** Thrown by APIs that need an existing skill (tools turn it into a "not found" tool result). */
export class SkillNotFoundError extends SkillrtError {
  readonly skillName: string;
  readonly closest: string[];

  constructor({ name, closest = [] }: { name: string; closest?: string[] }) {
    const hint = closest.length > 0 ? ` Closest: ${closest.join(", ")}.` : "";
    super({ code: "skill-not-found", message: `Skill '${name}' not found.${hint}` });
    this.name = "SkillNotFoundError";
    this.skillName = name;
    this.closest = closest;
  }

  static override isInstance(error: unknown): error is SkillNotFoundError {
    return SkillrtError.isInstance(error) && error.code === "skill-not-found";
  }
}
