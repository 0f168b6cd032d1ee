/**
 * An old client: the MCP SDK 1.x client asking for protocol 2025-06-18 (as clients of that revision
 * do) gets that revision, and lists, reads and calls everything `createSkillMcpServer` serves — tools,
 * resources, prompts and the Skills Extension.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillMcpServer } from "./create-skill-mcp-server.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");

describe("an SDK 1.x client at protocol 2025-06-18", () => {
  it("negotiates 2025-06-18 and lists, reads and calls everything served", async () => {
    const catalog = await createCatalog({ roots: [examples] });
    const server = await createSkillMcpServer({ catalog, exec: false });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    // The client of a 2025-06-18 host: its initialize asks for that revision; the answer is recorded.
    let negotiated: unknown;
    const send = clientTransport.send.bind(clientTransport);
    clientTransport.send = (message: JSONRPCMessage, options) => {
      if ("method" in message && message.method === "initialize" && message.params !== undefined)
        message.params["protocolVersion"] = "2025-06-18";
      return send(message, options);
    };
    const client = new Client({ name: "old-host", version: "1.0.0" });
    const receive = (message: JSONRPCMessage) => {
      if ("result" in message && typeof message.result["protocolVersion"] === "string")
        negotiated ??= message.result["protocolVersion"];
    };
    const connected = client.connect(clientTransport);
    const onmessage = clientTransport.onmessage;
    clientTransport.onmessage = (message) => {
      receive(message);
      onmessage?.(message);
    };
    await connected;
    try {
      expect(negotiated).toBe("2025-06-18");
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(["skill_load", "skill_read", "skill_search"]));
      const loaded = await client.callTool({ name: "skill_load", arguments: { name: "csv-summary" } });
      expect(JSON.stringify(loaded.content)).toContain("csv-summary");
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain("skill://csv-summary/SKILL.md");
      const read = await client.readResource({ uri: "skill://csv-summary/SKILL.md" });
      expect(JSON.stringify(read.contents)).toContain("name: csv-summary");
      const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toContain("csv-summary");
      const prompt = await client.getPrompt({ name: "csv-summary", arguments: { args: "data.csv" } });
      expect(prompt.messages[0]?.role).toBe("user");
      const listed = await client.request(
        { method: "skills/list", params: {} },
        z.object({ skills: z.array(z.object({ uri: z.string() })) }),
      );
      expect(listed.skills.map((s) => s.uri)).toContain("skill://csv-summary/SKILL.md");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
