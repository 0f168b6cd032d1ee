import { asSchema, jsonSchema, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel } from "../test-kit.js";
import { runAgent } from "./run-agent.js";
import { addToolsOnce, schemaOnce } from "./schema-once.js";

const weather = tool({
  description: "Weather of a city.",
  inputSchema: z.object({ city: z.string().describe("City name.") }),
  execute: async ({ city }) => `sunny in ${city}`,
});

describe("schemaOnce", () => {
  it("gives the tool the SDK's schema wrapper once: same JSON Schema, same validation, same wrapper every time", async () => {
    const once = schemaOnce(weather);
    expect(once).not.toBe(weather);
    expect(schemaOnce(weather)).toBe(once);
    expect(once.execute).toBe(weather.execute);
    expect(once.description).toBe(weather.description);
    const wrapped = asSchema(once.inputSchema);
    expect(await wrapped.jsonSchema).toEqual(await asSchema(weather.inputSchema).jsonSchema);
    expect((await wrapped.validate?.({ city: "Oslo" }))?.success).toBe(true);
    expect((await wrapped.validate?.({ city: 3 }))?.success).toBe(false);
  });

  it("keeps a tool whose schema is already the SDK's JSON Schema, and never replaces a tool already in the set", () => {
    const plain = tool({
      description: "x",
      inputSchema: jsonSchema({ type: "object" }),
      execute: async () => 1,
    });
    expect(schemaOnce(plain)).toBe(plain);
    const into: ToolSet = { weather: plain };
    addToolsOnce(into, { weather, plain });
    expect(into.weather).toBe(plain);
    expect(into.plain).toBe(plain);
  });

  it("an agent sends every step the tool definitions a bare zod tool gives, and runs the tool", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "weather", input: '{"city":"Oslo"}' }] },
      { toolCalls: [{ name: "weather", input: '{"city":7}' }] },
      { text: "done" },
    ]);
    const result = await runAgent({ model, tools: { weather }, messages: [{ role: "user", content: "go" }] });
    expect(result.text).toBe("done");
    const expected = [
      {
        type: "function",
        name: "weather",
        description: "Weather of a city.",
        inputSchema: await asSchema(weather.inputSchema).jsonSchema,
      },
    ];
    expect(model.calls.map((call) => call.tools)).toEqual([expected, expected, expected]);
    const outputs = JSON.stringify(result.messages.filter((m) => m.role === "tool"));
    expect(outputs).toContain("sunny in Oslo");
    // Invalid input is still refused by the schema: the model sees an error, the tool does not run.
    expect(outputs).toMatch(/Invalid input|expected string/);
  });
});
