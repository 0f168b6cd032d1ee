/**
 * Token figures of what a loopback provider received, counted with skillrt's default counter, and a
 * generated skill of a given size: the measuring stick for the context accounting tests.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTokenCounter } from "../../../src/context/token-counter.js";

export const counter = createTokenCounter();

/** Writes `dir/name/SKILL.md` with a body of at least `tokens` tokens; returns the body's tokens. */
export async function writeBigSkill(dir: string, name: string, tokens: number): Promise<number> {
  const lines: string[] = [];
  for (let i = 0; counter.count(lines.join("\n")) < tokens; i += 50)
    for (let j = i; j < i + 50; j++)
      lines.push(
        `${j}. Check field number ${j} of the ledger against rule ${(j * 7) % 101} before you go on.`,
      );
  const body = lines.join("\n");
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(
    path.join(dir, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: Checks a long ledger field by field. Use for ledger audits.\n---\n\n${body}\n`,
  );
  return counter.count(body);
}

/** Tokens of the conversation of an OpenAI chat request body: every message but the system one. */
export function requestHistoryTokens(body: any): number {
  let tokens = 0;
  for (const m of body.messages as any[]) {
    if (m.role === "system") continue;
    if (typeof m.content === "string") tokens += counter.count(m.content);
    else if (Array.isArray(m.content))
      for (const p of m.content) if (typeof p.text === "string") tokens += counter.count(p.text);
    for (const c of m.tool_calls ?? []) tokens += counter.count(c.function.arguments);
  }
  return tokens;
}

/** Tokens of each tool definition of an OpenAI chat request body, counted as `{ name, description, parameters }`. */
export function requestToolTokens(body: any): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of (body.tools ?? []) as any[]) {
    const { name, description, parameters } = t.function;
    out.set(name, counter.count(JSON.stringify({ name, description: description ?? "", parameters })));
  }
  return out;
}
