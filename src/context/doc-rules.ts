/**
 * Which of a skill's files are docs (selectable, listed by `listDocs`): the rules of the seed systems, as
 * plain functions of the path relative to the skill directory. A profile picks one.
 */

/** trpc's doc rule (the default): `.md` / `.txt` files (any case) other than SKILL.md. */
export function isDefaultDoc(path: string): boolean {
  return path !== "SKILL.md" && /\.(md|txt)$/i.test(path);
}

/** OmniEmployee's reference rule: `forms.md`, `reference.md` and `references/*.{md,txt,yaml,yml,json}`. */
export function isOmniReference(path: string): boolean {
  return (
    path === "forms.md" || path === "reference.md" || /^references\/[^/]+\.(md|txt|yaml|yml|json)$/.test(path)
  );
}
