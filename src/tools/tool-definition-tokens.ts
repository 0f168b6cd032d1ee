/**
 * What tool definitions cost in context: each tool the model is offered is sent as its name, description
 * and input JSON Schema with every request. Counted per tool so `/context` and the inspector can list them.
 */
import { asSchema, type ToolSet } from "ai";
import type { TokenCounter } from "../context/token-counter.js";

/** The tokens one tool's definition costs. */
export interface ToolTokens {
  name: string;
  tokens: number;
}

// A tool object's definition does not change: its count is kept per tool and tokenizer, so the loop can
// count every step's tools without converting schemas again.
const counted = new WeakMap<object, Map<string, number>>();

/**
 * Tokens of the definitions of `names` in `tools` (unknown names are left out), in the order given: the
 * JSON of `{ name, description, parameters }`, as an OpenAI-compatible request carries it (other providers'
 * framings differ by a few tokens per tool).
 */
export async function toolDefinitionTokens(
  tools: ToolSet,
  names: readonly string[],
  counter: TokenCounter,
): Promise<ToolTokens[]> {
  const out: ToolTokens[] = [];
  for (const name of names) {
    const tool = tools[name];
    if (tool === undefined) continue;
    const known = counted.get(tool)?.get(`${counter.name}\u0000${name}`);
    if (known !== undefined) {
      out.push({ name, tokens: known });
      continue;
    }
    let parameters: unknown = {};
    try {
      parameters = await asSchema(tool.inputSchema).jsonSchema;
    } catch {
      // A schema that cannot be converted is counted without its parameters rather than failing the count.
    }
    const text = JSON.stringify({ name, description: tool.description ?? "", parameters }) ?? "";
    const tokens = counter.count(text);
    const byCounter = counted.get(tool) ?? new Map<string, number>();
    byCounter.set(`${counter.name}\u0000${name}`, tokens);
    counted.set(tool, byCounter);
    out.push({ name, tokens });
  }
  return out;
}
