/** ANSI styling for one output stream; every function is the identity when colour is off. */
export interface Style {
  enabled: boolean;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/**
 * Colour is on only when `stream` is a TTY and `NO_COLOR` is unset (or empty) in `env`
 * (https://no-color.org).
 */
export function createStyle(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): Style {
  const enabled = stream.isTTY === true && (env["NO_COLOR"] === undefined || env["NO_COLOR"] === "");
  const wrap =
    (open: number, close: number) =>
    (text: string): string =>
      enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}
