/**
 * Lenient repairs of frontmatter that YAML refuses, as the agentskills client guide suggests: quote
 * plain values that hold `: ` (or start with a reserved character), turn tab indentation into spaces and
 * read odd key separators (`key：value`). Only applied after a parse failed (or read the whole frontmatter
 * as one string); the caller re-parses and reports each repaired line.
 */

/** What a repair did to one line. */
export type YamlRepairKind = "quoted-value" | "tab-indentation" | "quoted-continuation" | "key-separator";

/** The repaired text and what was changed where (0-based lines of the YAML text). */
export interface YamlRepair {
  text: string;
  repairs: { line: number; kind: YamlRepairKind }[];
}

const KEY_LINE = /^( *)((?:[^\s#'"{}[\]&*!|>%@`,?:-][^:#]*?)|"[^"]*"|'[^']*'):[ ]+(.*)$/;

/** A plain value YAML cannot read as written. */
function needsQuoting(value: string): boolean {
  const v = value.trimEnd();
  if (v === "") return false;
  const first = v.charAt(0);
  if (first === "'" || first === '"' || first === "|" || first === ">" || first === "#") return false;
  if (first === "@" || first === "`" || first === "%") return true;
  if ((first === "[" && !v.endsWith("]")) || (first === "{" && !v.endsWith("}"))) return true;
  if (first === "[" || first === "{" || first === "&" || first === "*" || first === "!") return false;
  return v.includes(": ") || v.endsWith(":");
}

function isPlain(value: string): boolean {
  return !"'\"|>[{&*!#".includes(value.charAt(0));
}

function indentOf(line: string): number {
  let k = 0;
  while (k < line.length && line.charCodeAt(k) === 32) k++;
  return k;
}

/** True when `line` (from `start`) holds the quote that closes a scalar quoted with `quote`. */
function closesQuote(line: string, quote: string, start: number): boolean {
  return closingQuote(line, quote, start) >= 0;
}

/** Index in `line` (from `start`) of the quote closing a scalar quoted with `quote`, or -1. */
function closingQuote(line: string, quote: string, start: number): number {
  for (let k = start; k < line.length; k++) {
    const ch = line.charAt(k);
    if (quote === '"' && ch === "\\") k++;
    else if (ch === quote) {
      if (quote === "'" && line.charAt(k + 1) === "'") k++;
      else return k;
    }
  }
  return -1;
}

/**
 * The text a reader sees in a quoted value YAML refuses because its quote closes early
 * (`'It's here'`, `"Run "fast" mode"`, `"PDF" tools`): what lies between the outer quotes when the value
 * ends with the opening quote, else the whole value. `undefined` when the quoting is valid or the value
 * continues on the next lines.
 */
function misquotedText(value: string): string | undefined {
  const quote = value.charAt(0);
  const close = closingQuote(value, quote, 1);
  if (close < 0 || /^\s*(?:#.*)?$/.test(value.slice(close + 1))) return undefined;
  return value.length >= 2 && value.endsWith(quote) ? value.slice(1, -1) : value;
}

/**
 * Indents the continuation lines of a quoted value that spans lines without indentation
 * (`description: "long\ntext"`). The reference's YAML parser accepts that form; the `yaml` library
 * wants continuation lines indented deeper than their key. `undefined` when nothing changed.
 */
export function indentQuotedContinuations(text: string): string | undefined {
  return indentContinuations(text).text;
}

function indentContinuations(text: string): { text: string | undefined; lines: number[] } {
  const lines = text.split("\n");
  const changedLines: number[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const m = KEY_LINE.exec(lines[i]!);
    if (m === null) continue;
    const value = m[3]!;
    const q = value.charAt(0);
    if ((q !== '"' && q !== "'") || closesQuote(value, q, 1)) continue;
    const pad = " ".repeat(m[1]!.length + 2);
    for (let j = i + 1; j < lines.length; j++) {
      if (lines[j]!.trim() !== "" && indentOf(lines[j]!) <= m[1]!.length) {
        lines[j] = pad + lines[j]!.trimStart();
        if (!changed || changedLines[changedLines.length - 1] !== i) changedLines.push(i);
        changed = true;
      }
      if (closesQuote(lines[j]!, q, 0)) {
        i = j;
        break;
      }
    }
  }
  return { text: changed ? lines.join("\n") : undefined, lines: changedLines };
}

/** `key：value`, `key:\u00a0value` (full-width colon, no-break or ideographic space), any indentation. */
const ODD_SEPARATOR = /^( *)([A-Za-z_][A-Za-z0-9_.-]*)(?:[ \t]*：|:[\u00a0\u3000])[ \t\u00a0\u3000]*(.*)$/;
/** `key:value` in column 0 (no space after the colon; `http://` and `a::b` excluded). */
const TIGHT_SEPARATOR = /^()([A-Za-z_][A-Za-z0-9_.-]*):(?=[^\s:/])(.*)$/;

/**
 * Rewrites keys a reader sees but YAML does not: `key：value` (full-width colon, common with CJK input),
 * `key:` followed by a no-break space, and `key:value` in column 0. `undefined` when no line changed.
 * Only applied to frontmatter YAML refuses or reads as one plain string.
 */
export function separateKeys(text: string): YamlRepair | undefined {
  const lines = text.split("\n");
  const repairs: YamlRepair["repairs"] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = ODD_SEPARATOR.exec(lines[i]!) ?? TIGHT_SEPARATOR.exec(lines[i]!);
    if (m === null) continue;
    lines[i] = `${m[1]}${m[2]}: ${m[3]}`;
    repairs.push({ line: i, kind: "key-separator" });
  }
  return repairs.length === 0 ? undefined : { text: lines.join("\n"), repairs };
}

/** Rewrites the lines YAML is known to trip on; `undefined` when nothing could be repaired. */
export function repairFrontmatterYaml(text: string): YamlRepair | undefined {
  const separated = separateKeys(text);
  const indented = indentContinuations(separated?.text ?? text);
  const lines = (indented.text ?? separated?.text ?? text).split("\n");
  const repairs: YamlRepair["repairs"] = [
    ...(separated?.repairs ?? []),
    ...indented.lines.map((line) => ({ line, kind: "quoted-continuation" as const })),
  ];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("\t") || line.startsWith(" \t")) {
      const lead = /^[ \t]+/.exec(line)?.[0] ?? "";
      lines[i] = lead.replace(/\t/g, "  ") + line.slice(lead.length);
      repairs.push({ line: i, kind: "tab-indentation" });
    }
  }
  for (let i = 0; i < lines.length; i++) {
    const m = KEY_LINE.exec(lines[i]!);
    if (m === null || m[3]!.trim() === "" || m[3]!.startsWith("#")) continue; // nested block follows
    const indent = m[1]!.length;
    // The value continues on following lines indented deeper than its key (plain or quoted
    // continuation, or block-scalar content): never read those as keys.
    let last = i;
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.trim() === "") continue;
      if (indentOf(l) <= indent) break;
      last = j;
    }
    const continuation = lines.slice(i + 1, last + 1).map((l) => l.trim());
    if (needsQuoting(m[3]!) || (isPlain(m[3]!) && continuation.some((l) => needsQuoting(`x ${l}`)))) {
      const head = `${m[1]}${m[2]}: '${m[3]!.replace(/'/g, "''")}`;
      if (last === i) {
        lines[i] = `${head.trimEnd()}'`;
      } else {
        lines[i] = head;
        for (let j = i + 1; j <= last; j++) lines[j] = lines[j]!.replace(/'/g, "''");
        lines[last] = `${lines[last]!.trimEnd()}'`;
      }
      repairs.push({ line: i, kind: "quoted-value" });
    }
    i = last;
  }
  if (repairs.length === 0) return undefined;
  return { text: lines.join("\n"), repairs: repairs.sort((a, b) => a.line - b.line) };
}

/**
 * Quotes the plain value of the `key: value` line at or above `offset` (where YAML reported its error),
 * for values the pattern-based repairs cannot predict, e.g. `argument-hint: [file] [pages]`, or a quoted
 * value whose quote closes early (`'It's here'` becomes the text `It's here`). `undefined` when that line
 * holds no plain, flow or misquoted value to quote.
 */
export function quoteValueAt(text: string, offset: number): YamlRepair | undefined {
  const lines = text.split("\n");
  let at = text.slice(0, Math.max(0, Math.min(offset, text.length))).split("\n").length - 1;
  for (; at >= 0; at--) {
    const m = KEY_LINE.exec(lines[at]!);
    if (m === null) continue;
    let value = m[3]!.trimEnd();
    const first = value.charAt(0);
    if (first === "'" || first === '"') {
      const text = misquotedText(value);
      if (text === undefined) return undefined;
      value = text;
    } else if (value === "" || first === "|" || first === ">" || first === "#") {
      return undefined;
    }
    lines[at] = `${m[1]}${m[2]}: '${value.replace(/'/g, "''")}'`;
    return { text: lines.join("\n"), repairs: [{ line: at, kind: "quoted-value" }] };
  }
  return undefined;
}
