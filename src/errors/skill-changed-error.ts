import { SkillrtError } from "./skillrt-error.js";

/**
 * Thrown when the staged copy of a skill does not have the content its root was trusted with: the skill
 * (or another file of its root) changed after the user trusted it. Nothing of it ran; the run is refused
 * with this message, which names the command that trusts the root again.
 */
export class SkillChangedError extends SkillrtError {
  readonly skillName: string;
  readonly root: string;

  constructor({
    name,
    root,
    howToTrust,
    reason,
  }: { name: string; root: string; howToTrust: string; reason?: string }) {
    super({
      code: "skill-changed",
      message:
        `skill '${name}' was not run: ${reason ?? `its root ${root} changed since the user trusted it`}, ` +
        "so it is not trusted now (what is on disk is not what was trusted). Its instructions can still be " +
        `read. Tell the user to review the change and trust it again with \`${howToTrust}\`, then try again.`,
    });
    this.name = "SkillChangedError";
    this.skillName = name;
    this.root = root;
  }

  static override isInstance(error: unknown): error is SkillChangedError {
    return SkillrtError.isInstance(error) && error.code === "skill-changed";
  }
}
