/**
 * Placeholders in a skill body, following Claude Code: `$ARGUMENTS` is the argument string exactly as given;
 * `$ARGUMENTS[N]` and its shorthand `$N` (0-based: `$0` is the first argument) are the shell-split words;
 * a positional with no argument stays as written. `${SKILL_DIR}` / `${CLAUDE_SKILL_DIR}` are the skill
 * directory and `${SESSION_ID}` / `${CLAUDE_SESSION_ID}` the session id. When arguments are given but the
 * body has no `$ARGUMENTS` placeholder, `ARGUMENTS: <args>` is appended (as Claude Code does).
 */
import { splitArguments } from "./split-arguments.js";

/** Values for {@link substituteArguments}. */
export interface SubstitutionValues {
  /** Raw argument string; undefined when the skill was loaded without arguments. */
  args?: string;
  skillDir: string;
  sessionId: string;
}

/** The body with every placeholder replaced. */
export function substituteArguments(body: string, values: SubstitutionValues): string {
  let text = body
    .replaceAll(/\$\{(?:CLAUDE_)?SKILL_DIR\}/g, values.skillDir)
    .replaceAll(/\$\{(?:CLAUDE_)?SESSION_ID\}/g, values.sessionId);
  if (values.args === undefined) return text;
  const raw = values.args;
  const words = splitArguments(raw);
  const hasPlaceholder = /\$ARGUMENTS|\$\d/.test(text);
  text = text.replace(
    /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)/g,
    (match, indexed: string | undefined, short: string | undefined) => {
      const index = indexed ?? short;
      if (index === undefined) return raw;
      return words[Number(index)] ?? match;
    },
  );
  if (!hasPlaceholder && raw.trim() !== "") text = `${text}\n\nARGUMENTS: ${raw}`;
  return text;
}
