/**
 * Tools whose input schema is converted to JSON Schema once, not at every step. The AI SDK wraps a zod (or
 * other Standard Schema) `inputSchema` anew in every step's `prepareTools`, so each step converts every
 * tool's schema again (zod's `toJSONSchema`: about a third of an agent step with the skill tools). Giving
 * the tool the SDK's own wrapper (`asSchema`), which keeps its JSON Schema once computed, sends the same
 * schema and validates the same way.
 */
import { asSchema, type ToolSet } from "ai";

type AnyTool = ToolSet[string];

const converted = new WeakMap<AnyTool, AnyTool>();

/**
 * `tool` with its input schema wrapped once (the same wrapper for the same tool object); the tool itself
 * when there is nothing to wrap (a provider tool, or a schema the SDK already holds as JSON Schema).
 */
export function schemaOnce(tool: AnyTool): AnyTool {
  const known = converted.get(tool);
  if (known !== undefined) return known;
  let out = tool;
  if (tool.type !== "provider" && tool.inputSchema !== undefined) {
    const schema = asSchema(tool.inputSchema);
    if (schema !== tool.inputSchema) out = { ...tool, inputSchema: schema } as AnyTool;
  }
  converted.set(tool, out);
  return out;
}

/**
 * Copies the tools of `from` missing in `into`, each through {@link schemaOnce} (then `wrap`, when given:
 * the agent's span around each execution).
 */
export function addToolsOnce(
  into: ToolSet,
  from: ToolSet,
  wrap?: (name: string, tool: AnyTool) => AnyTool,
): void {
  for (const [name, tool] of Object.entries(from))
    if (!(name in into)) into[name] = wrap === undefined ? schemaOnce(tool) : wrap(name, schemaOnce(tool));
}
