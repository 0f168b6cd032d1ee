/**
 * `skillrt mcp --http` stays responsive while one client loads a skill whose body is hostile to the
 * tokenizer (one 150,000-letter word, which took 15 s of blocked event loop to count before counting was
 * made linear and asynchronous): another client's pings keep being answered. Two MCP SDK clients over
 * Streamable HTTP against the built CLI.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHttp } from "./support/mcp-http-server.js";
import { assertBuilt } from "./support/run-cli.js";

/** Worst ping round trip allowed while the load runs (a blocked event loop shows as seconds). */
const MAX_PING_MS = 200;
const WORD_LETTERS = 150_000;

let dir: string;

beforeAll(async () => {
  assertBuilt();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-responsive-"));
  // Letters from a seeded generator: no pair repeats often enough for the tokenizer's caches to help.
  let x = 20_260_101;
  let word = "";
  for (let i = 0; i < WORD_LETTERS; i++) {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    word += String.fromCharCode(97 + ((x >> 8) % 26));
  }
  const skill = path.join(dir, "skills", "long-word");
  await fs.mkdir(skill, { recursive: true });
  await fs.writeFile(
    path.join(skill, "SKILL.md"),
    `---\nname: long-word\ndescription: A skill whose body is one very long word.\n---\n\n${word}\n`,
  );
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("skillrt mcp --http under a tokenizer-hostile skill_load", () => {
  it(`answers another client's pings within ${MAX_PING_MS} ms while a ${WORD_LETTERS}-letter word is loaded`, async () => {
    const env = {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: dir,
      NO_COLOR: "1",
      SKILLRT_CACHE: "0",
    };
    const server = await startMcpHttp(["--root", path.join(dir, "skills"), "--no-exec"], env);
    const connect = async (name: string): Promise<Client> => {
      const client = new Client({ name, version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }),
      );
      return client;
    };
    try {
      const loader = await connect("loader");
      const pinger = await connect("pinger");
      // Warm both paths (tokenizer vocabulary, route handlers) so the figures measure the load alone.
      await pinger.ping();
      await loader.callTool({ name: "skill_search", arguments: { query: "word" } }).catch(() => undefined);

      /** Runs `call` while the other client pings in a loop: its result and every ping's round trip. */
      const whilePinging = async <T>(call: Promise<T>): Promise<{ result: T; latencies: number[] }> => {
        let running = true;
        const done = call.finally(() => {
          running = false;
        });
        const latencies: number[] = [];
        while (running) {
          const start = performance.now();
          await pinger.ping();
          latencies.push(performance.now() - start);
        }
        return { result: await done, latencies };
      };
      const textOf = (result: Awaited<ReturnType<Client["callTool"]>>): string =>
        (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? "").join("");

      // The load counts the body (and refuses it: it is far over the per-skill budget).
      const load = await whilePinging(
        loader.callTool({ name: "skill_load", arguments: { name: "long-word" } }, undefined, {
          timeout: 120_000,
        }),
      );
      expect(textOf(load.result)).toMatch(/Skill 'long-word' is [\d,]+ tokens, over the [\d,]+-token budget/);
      expect(load.latencies.length).toBeGreaterThan(0);
      expect(Math.max(...load.latencies)).toBeLessThan(MAX_PING_MS);

      // Reading the word's line, as the refusal suggests, cuts it to the budget (many counts of long prefixes).
      const read = await whilePinging(
        loader.callTool(
          {
            name: "skill_read",
            arguments: { name: "long-word", path: "SKILL.md", start_line: 6, end_line: 6 },
          },
          undefined,
          { timeout: 120_000 },
        ),
      );
      const readText = textOf(read.result);
      expect(read.result.isError ?? false, readText.slice(0, 300)).toBe(false);
      expect(readText).toContain("[line cut to fit the token budget]");
      expect(read.latencies.length).toBeGreaterThan(0);
      expect(Math.max(...read.latencies)).toBeLessThan(MAX_PING_MS);
      await loader.close();
      await pinger.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 180_000);
});
