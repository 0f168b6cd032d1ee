/**
 * Allow/deny lists of executables for skill runs. An argv command is checked by the basename of
 * argv[0]; a string command (run through a shell) by the first word of every simple command found by a
 * lightweight scan (split on `;`, `&`, `|`, newlines, `(`, `)`, backticks and `$(`), skipping
 * `VAR=value` prefixes and looking through wrappers such as `env`, `exec`, `nohup`, `time`, `xargs`.
 *
 * Limits: this is a guard rail, not a security boundary. It does not expand variables, aliases or
 * functions, so `$CMD`, `eval "..."`, `sh -c "..."` (when `sh` is allowed) or an interpreter running
 * arbitrary code (`python3 -c`) can reach any executable. Isolation comes from the executor.
 */

/** The lists. Deny wins; an empty or absent allow list allows everything not denied. */
export interface CommandPolicy {
  allow?: string[];
  deny?: string[];
}

/** Outcome of a check: `ok`, or a refusal message for the model. */
export type PolicyDecision = { ok: true } | { ok: false; message: string };

const WRAPPERS = new Set([
  "env",
  "exec",
  "command",
  "nohup",
  "time",
  "nice",
  "timeout",
  "xargs",
  "sudo",
  "stdbuf",
]);
const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "case",
  "esac",
  "{",
  "}",
  "!",
  "[[",
  "]]",
]);

function basename(word: string): string {
  return (
    word
      .replace(/^['"]|['"]$/g, "")
      .split("/")
      .pop() ?? word
  );
}

/** A quoted string as one word: `"rm"` stays `rm`, separators and spaces inside become `_`. */
function flatten(quoted: string): string {
  return quoted === "" ? "_" : quoted.replace(/[\s;&|()`$<>\\]/g, "_");
}

/**
 * Replaces quoted strings with a single word so separators inside quotes are not split on; command
 * substitutions inside double quotes (`"$(…)"`, backticks) are kept as extra segments.
 */
function unquote(command: string): { text: string; extra: string[] } {
  const extra: string[] = [];
  let text = "";
  let i = 0;
  while (i < command.length) {
    const c = command[i];
    if (c === "\\") {
      text += "_";
      i += 2;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      text += flatten(command.slice(i + 1, end === -1 ? command.length : end));
      i = end === -1 ? command.length : end + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < command.length && command[j] !== '"') j += command[j] === "\\" ? 2 : 1;
      const inner = command.slice(i + 1, j);
      for (const m of inner.matchAll(/\$\(([^)]*)\)|`([^`]*)`/g)) extra.push(m[1] ?? m[2] ?? "");
      text += flatten(inner);
      i = j + 1;
    } else {
      text += c;
      i++;
    }
  }
  return { text, extra };
}

/** Executable names (basenames) a shell string would start, as far as the lightweight scan sees. */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  const { text, extra } = unquote(command);
  const segments = [text, ...extra].flatMap((part) => part.split(/\$\(|`|&&|\|\||[;&|\n()]/));
  for (const segment of segments) {
    const tokens = segment
      .trim()
      .split(/\s+/)
      .filter((t) => t !== "");
    let i = 0;
    while (i < tokens.length) {
      const token = tokens[i] ?? "";
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(token) || RESERVED.has(token)) {
        i++;
        continue;
      }
      if (/^[0-9]*[<>]/.test(token)) {
        i += /^[0-9]*[<>]+&?$/.test(token) ? 2 : 1; // redirection and its target
        continue;
      }
      const name = basename(token);
      if (name === "") break;
      words.push(name);
      if (!WRAPPERS.has(name)) break;
      i++;
      while (i < tokens.length && (tokens[i] ?? "").startsWith("-")) i++;
      if (name === "timeout" && i < tokens.length) i++; // its duration
    }
  }
  return words;
}

/** Checks `command` against `policy`. */
export function checkCommandPolicy(
  command: string[] | string,
  policy: CommandPolicy | undefined,
): PolicyDecision {
  const allow = policy?.allow ?? [];
  const deny = policy?.deny ?? [];
  if (allow.length === 0 && deny.length === 0) return { ok: true };
  const words = typeof command === "string" ? commandWords(command) : [basename(command[0] ?? "")];
  const allowed = new Set(allow.map(basename));
  const denied = new Set(deny.map(basename));
  for (const word of words) {
    if (denied.has(word)) {
      return {
        ok: false,
        message: `Command refused: '${word}' is on the deny list. Do not retry it; use another approach.`,
      };
    }
    if (allowed.size > 0 && !allowed.has(word)) {
      const list =
        [...allowed].slice(0, 20).join(", ") + (allowed.size > 20 ? ` (+${allowed.size - 20} more)` : "");
      return {
        ok: false,
        message: `Command refused: '${word}' is not on the allow list. Allowed commands: ${list}.`,
      };
    }
  }
  return { ok: true };
}
