/**
 * Tab completion of the chat's `/commands`: the built-in commands and `/NAME` for every skill the user may
 * invoke (`user-invocable: false` skills are never offered), and skill names after `/skill ` and `/unload `.
 */

/** The chat's built-in commands, as completion offers them. */
export const SLASH_COMMANDS = [
  "context",
  "exit",
  "help",
  "new",
  "reload",
  "sessions",
  "skill",
  "skills",
  "unload",
] as const;

/**
 * A `readline` completer result for `line`: the candidates starting with what was typed, and the part of
 * the line they complete. `invocable` are the names of the skills the user may invoke now; `loaded` the
 * loaded ones (what `/unload` completes). A line that is not a command completes to nothing.
 */
export function completeSlash(
  line: string,
  invocable: readonly string[],
  loaded: readonly string[] = [],
): [string[], string] {
  if (!line.startsWith("/")) return [[], line];
  const argument = /^\/(skill|unload)\s+(\S*)$/.exec(line);
  if (argument !== null) {
    const partial = argument[2] ?? "";
    const names = argument[1] === "unload" ? loaded : invocable;
    return [names.filter((n) => n.startsWith(partial)).sort(), partial];
  }
  if (/\s/.test(line)) return [[], line];
  const commands = [...new Set([...SLASH_COMMANDS, ...invocable])].sort().map((c) => `/${c}`);
  return [commands.filter((c) => c.startsWith(line)), line];
}
