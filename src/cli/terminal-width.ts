/**
 * Width available for one line of human output: the stream's `columns` on a TTY, else a positive
 * `COLUMNS` from `env`, else `undefined` (no truncation, e.g. when piped).
 */
export function terminalWidth(
  stream: { isTTY?: boolean; columns?: number },
  env: Record<string, string | undefined>,
): number | undefined {
  if (stream.isTTY === true && typeof stream.columns === "number" && stream.columns > 0)
    return stream.columns;
  const fromEnv = Number.parseInt(env["COLUMNS"] ?? "", 10);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : undefined;
}

/**
 * Collapses whitespace runs (newlines included) to single spaces and cuts `text` to at most `width`
 * code points, ending with `…` when cut. `width` undefined keeps the whole (collapsed) text.
 */
export function truncateText(text: string, width: number | undefined): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (width === undefined) return flat;
  const chars = [...flat];
  if (chars.length <= width) return flat;
  if (width <= 1) return "…".slice(0, Math.max(width, 0));
  return `${chars.slice(0, width - 1).join("")}…`;
}
