/** `$name` mentions: a user asking for a skill inside a message (Codex's convention). */

/**
 * `$name` mentions in a message that name skills of `known`, in order, without repeats. `known` is asked
 * only about the names mentioned (a set, or a lookup such as the session's), never walked.
 */
export function mentionedSkills(text: string, known: { has(name: string): boolean }): string[] {
  const names = [...text.matchAll(/(?:^|[\s(])\$([a-z0-9][a-z0-9-]*)/g)].map((m) => m[1] ?? "");
  return [...new Set(names.filter((n) => known.has(n)))];
}
