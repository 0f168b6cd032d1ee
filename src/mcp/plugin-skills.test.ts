import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillMcpServer } from "./create-skill-mcp-server.js";

let tmp: string;
beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-plugins-")));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

describe("plugin skills over MCP", () => {
  it("serves same-name skills of two plugins at skill://plugin/skill/… and as plugin:skill prompts and tool names", async () => {
    for (const plugin of ["a", "b"]) {
      await write(`${tmp}/${plugin}/.claude-plugin/plugin.json`, JSON.stringify({ name: plugin }));
      await write(
        `${tmp}/${plugin}/skills/review/SKILL.md`,
        `---\nname: review\ndescription: Reviews as ${plugin}.\n---\n\nReview as plugin ${plugin}.\n`,
      );
    }
    const catalog = await createCatalog({ roots: [tmp] });
    const server = await createSkillMcpServer({ catalog, exec: false });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await client.connect(clientTransport);
    try {
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      expect(uris).toContain("skill://a/review/SKILL.md");
      expect(uris).toContain("skill://b/review/SKILL.md");
      const read = await client.readResource({ uri: "skill://b/review/SKILL.md" });
      const content = read.contents[0];
      expect(content !== undefined && "text" in content ? content.text : "").toContain("Review as plugin b.");
      const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toEqual(expect.arrayContaining(["a:review", "b:review"]));
      const loaded = await client.callTool({ name: "skill_load", arguments: { name: "a:review" } });
      expect(JSON.stringify(loaded.content)).toContain("Review as plugin a.");
      const ambiguous = await client.callTool({ name: "skill_load", arguments: { name: "review" } });
      expect(ambiguous.isError).toBe(true);
      expect(JSON.stringify(ambiguous.content)).toContain("Use one of: a:review, b:review");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
