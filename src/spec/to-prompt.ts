/**
 * The `<available_skills>` block exactly as the reference's `skills-ref to-prompt` prints it: one tag
 * or value per line, no indentation, name and description HTML-escaped, location verbatim.
 */

/** One skill of the prompt block. `location` is the absolute path of its SKILL.md. */
export interface PromptEntry {
  name: string;
  description: string;
  location: string;
}

/** Python `html.escape(s, quote=True)`: `&`, `<`, `>`, `"` and `'` (as `&#x27;`). */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

/**
 * Renders the skills in the order given (no de-duplication, no validation). With no entries the
 * result is `<available_skills>\n</available_skills>`. There is no trailing newline (the CLI adds one).
 */
export function toPrompt(entries: readonly PromptEntry[]): string {
  const lines = ["<available_skills>"];
  for (const e of entries) {
    lines.push(
      "<skill>",
      "<name>",
      escapeHtml(e.name),
      "</name>",
      "<description>",
      escapeHtml(e.description),
      "</description>",
      "<location>",
      e.location,
      "</location>",
      "</skill>",
    );
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}
