import { SkillrtError } from "./skillrt-error.js";

/** Thrown by APIs that need an existing skill (tools turn it into a "not found" tool result). */
export class SkillNotFoundError extends SkillrtError {
  readonly skillName: string;
  readonly closest: string[];

  /** True when `name` is a short name several plugins' skills share: `closest` holds their qualified names. */
  readonly ambiguous: boolean;

  constructor({
    name,
    closest = [],
    ambiguous = false,
  }: { name: string; closest?: string[]; ambiguous?: boolean }) {
    const message = ambiguous
      ? ambiguousSkillMessage(name, closest)
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

/**
 * True when `closest` is what a catalog offers for a short name several plugins' skills share: only
 * their qualified names (`a:review`, `b:review` for `review`).
 */
export function offersQualifiedNames(name: string, closest: readonly string[]): boolean {
  return closest.length > 1 && closest.every((n) => n.endsWith(`:${name}`));
}

/** The refusal of a short name several plugins' skills share, offering their qualified names. */
export function ambiguousSkillMessage(name: string, qualified: readonly string[]): string {
  return `Skill '${name}' is ambiguous: skills of several plugins have that name. Use one of: ${qualified.join(", ")}.`;
}
