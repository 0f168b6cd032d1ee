/** Parsing of numeric command-line flags. */

/**
 * Parses a positive integer flag: `undefined` when the flag is absent, the number when it is a positive
 * integer, else `{ error }` with a message naming the flag (e.g. `--limit expects a positive integer, got 'x'`).
 */
export function intFlag(value: string | undefined, name: string): number | undefined | { error: string } {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    return { error: `--${name} expects a positive integer, got '${value}'` };
  return n;
}
