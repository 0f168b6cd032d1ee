import { asSchema, jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createTokenCounter } from "../context/token-counter.js";
import { toolDefinitionTokens } from "./tool-definition-tokens.js";

const counter = createTokenCounter();

describe("toolDefinitionTokens", () => {
  it("counts name, description and input schema of each named tool, in the order given", async () => {
    const tools = {
      small: tool({ description: "Adds.", inputSchema: z.object({ a: z.number() }), execute: async () => 1 }),
      large: tool({
        description: "Searches the whole ledger for entries that match every one of the given fields.",
        inputSchema: jsonSchema({
          type: "object",
          properties: { query: { type: "string", description: "What to look for, in plain words." } },
        }),
        execute: async () => 1,
      }),
    };
    const counted = await toolDefinitionTokens(tools, ["large", "missing", "small"], counter);
    expect(counted.map((t) => t.name)).toEqual(["large", "small"]);
    const small = counter.count(
      JSON.stringify({
        name: "small",
        description: "Adds.",
        parameters: await asSchema(tools.small.inputSchema).jsonSchema,
      }),
    );
    expect(counted[1]!.tokens).toBe(small);
    expect(counted[0]!.tokens).toBeGreaterThan(counted[1]!.tokens);
  });
});
