/**
 * Shell-like splitting of a skill's argument string (Claude Code's `$0`, `$1`, … convention): whitespace
 * separates words, single quotes keep text literally, double quotes keep spaces and allow `\"` and `\\`,
 * a backslash outside quotes escapes the next character. Quotes are removed. An unterminated quote runs to
 * the end of the string (lenient: arguments come from people and models).
 */
export function splitArguments(input: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i] ?? "";
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else current += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === "\\" && (input[i + 1] === '"' || input[i + 1] === "\\")) current += input[++i] ?? "";
      else current += ch;
      continue;
    }
    if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
      continue;
    }
    inWord = true;
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "\\" && i + 1 < input.length) current += input[++i] ?? "";
    else current += ch;
  }
  if (inWord) words.push(current);
  return words;
}
