/**
 * The skills source (the client side) honours the `ttlMs` of the results that carried its entries: an
 * entry past it is refreshed with `skills/get` before its skill is loaded, one within it is not. Against
 * skillrt's own server over an in-memory transport: `--watch`-style servers say `ttlMs: 0`, others a minute.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCatalog } from "../catalog/create-catalog.js";
import { createMcpSkillSource } from "../catalog/mcp-source/mcp-skill-source.js";
import { createSkillMcpServer } from "./create-skill-mcp-server.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function served(watch: boolean) {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-ttl-"));
  cleanup.push(() => fs.rm(root, { recursive: true, force: true }));
  await fs.mkdir(path.join(root, "pdf"));
  await fs.writeFile(
    path.join(root, "pdf", "SKILL.md"),
    "---\nname: pdf\ndescription: PDFs.\n---\n\nBody.\n",
  );
  const catalog = await createCatalog({ roots: [root] });
  const server = await createSkillMcpServer({ catalog, exec: false, watch });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "ttl", version: "1.0.0" });
  await client.connect(clientTransport);
  cleanup.push(async () => {
    await client.close();
    await server.close();
  });
  const methods: string[] = [];
  const source = createMcpSkillSource();
  await source.connect({
    label: "s",
    extensions: client.getServerCapabilities()?.extensions ?? {},
    request: (method, params) => {
      methods.push(method);
      return client.request({ method, params }, z.unknown());
    },
    alive: () => true,
  });
  return { source, methods };
}

describe("entries past their ttlMs", () => {
  it("are refreshed with skills/get before a load; entries within it are not", async () => {
    const stale = await served(true);
    expect(stale.source.skills()[0]?.ttlMs).toBe(0);
    await stale.source.loadSkillMd(stale.source.skills()[0]!);
    expect(stale.methods).toEqual(["skills/list", "skills/get", "resources/read"]);

    const fresh = await served(false);
    expect(fresh.source.skills()[0]?.ttlMs).toBe(60_000);
    await fresh.source.loadSkillMd(fresh.source.skills()[0]!);
    expect(fresh.methods).toEqual(["skills/list", "resources/read"]);
  });
});
