import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createToolRegistry } from "./tool-registry.js";

const echo = tool({
  description: "echo",
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});

describe("createToolRegistry", () => {
  it("keeps tools in registration order with their group and server", () => {
    const registry = createToolRegistry();
    registry.register("b", echo);
    registry.register("a", echo, { group: "g", server: "srv" });
    expect(registry.all().map((t) => t.name)).toEqual(["b", "a"]);
    expect(registry.get("a")).toEqual({ name: "a", tool: echo, group: "g", server: "srv" });
    expect(registry.get("missing")).toBeUndefined();
  });

  it("refuses a duplicate name until the tool is unregistered", () => {
    const registry = createToolRegistry();
    registry.register("a", echo);
    expect(() => registry.register("a", echo)).toThrow(/already registered/);
    expect(registry.unregister("a")).toBe(true);
    expect(registry.unregister("a")).toBe(false);
    registry.register("a", echo);
    expect(registry.all()).toHaveLength(1);
  });

  it("lists declared groups first, then groups only named by tools, and updates a group in place", () => {
    const registry = createToolRegistry();
    registry.register("t1", echo, { group: "loose" });
    registry.registerGroup("bound", { skill: "pdf" });
    registry.registerGroup("bound", { description: "PDF tools" });
    expect(registry.groups()).toEqual([
      { name: "bound", skill: "pdf", description: "PDF tools" },
      { name: "loose" },
    ]);
  });

  it("rejects empty names", () => {
    const registry = createToolRegistry();
    expect(() => registry.register("", echo)).toThrow(/non-empty/);
    expect(() => registry.registerGroup(" ")).toThrow(/non-empty/);
  });
});
