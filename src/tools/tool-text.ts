/** Small text helpers shared by the profiles' model-facing messages. */

/** Joins non-empty parts with a blank line. */
export function paragraphs(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("\n\n");
}

/** Python `repr` of a list of strings, as the Python seeds print them: `['a', 'b']`. */
export function pyList(values: readonly string[]): string {
  return `[${values.map((v) => `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`).join(", ")}]`;
}
