import { SkillrtError } from "./skillrt-error.js";

/** Thrown by APIs that need an existing skill (tools turn it into a "not found" tool result). */
export class SkillNotFoundError extends SkillrtError {
  readonly skillName: string;
  readonly closest: string[];

  /** True when `name` is a short name several plugins' skills share: `closest` holds their qualified names. */
  readonly ambiguous: boolean;

  constructor({ name, closest = [], ambiguous = false }: { name: string; closest?: string[]; ambiguous?: boolean }) {
    const message = ambiguous
      ? `Skill '${name}' is ambiguous: skills of several plugins have that name. Use one of: ${closest.join(", ")}.`
      : `Skill '${name}' not found.${closest.length > 0 ? ` Closest: ${closest.join(", ")}.` : ""}`;
    super({ code: "skill-not-found", message });
    this.ambiguous = ambiguous;
    this.name = "SkillNotFoundError";
    this.skillName = name;
    this.closest = closest;
  }

  static override isInstance(error: unknown): error is SkillNotFoundError {
    return SkillrtError.isInstance(error) && error.code === "skill-not-found";
  }
}
