/** Text from a process or server made safe for one terminal line: no escape sequences, no control characters. */

/**
 * Removes terminal escape sequences (CSI, OSC) and control characters other than tab and line breaks from
 * a server's or process's text.
 */
export function stripControls(text: string): string {
  return text
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, "")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, "");
}

/** Most characters of a {@link lastOutputLine}. */
const MAX_LINE = 200;

/** The last non-empty line of `text`, escapes and controls removed, blanks folded, at most 200 characters. */
export function lastOutputLine(text: string): string | undefined {
  const lines = text.split(/\r?\n|\r/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = oneLine(lines[i] ?? "");
    if (line !== "") return line;
  }
  return undefined;
}

/** `text` as one line: escapes and controls removed, blanks folded, at most 200 characters. */
export function oneLine(text: string): string {
  const clean = stripControls(text).replace(/\s+/g, " ").trim();
  return clean.length > MAX_LINE ? `${clean.slice(0, MAX_LINE - 1)}…` : clean;
}
