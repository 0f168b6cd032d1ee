#!/usr/bin/env node
/**
 * Test fixture: an MCP server (stdio, raw JSON-RPC) that declares the Skills Extension (SEP-2640) and
 * lists $SKILLS skills (default 1,000) on `skills/list` pages of $PAGE (default 100). It writes the number
 * of pages it was asked for to stderr, so a test can see where the client stopped reading.
 */
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";

const total = Number(process.env.SKILLS ?? 1_000);
const pageSize = Number(process.env.PAGE ?? 100);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const digest = `sha256:${createHash("sha256").update("x").digest("hex")}`;
let pages = 0;

const entry = (i) => ({
  uri: `skill://s${i}/SKILL.md`,
  frontmatter: { name: `s${i}`, description: `Skill number ${i}.` },
  resources: [{ uri: `skill://s${i}/SKILL.md`, digest }],
});

createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (method === "initialize")
    send({
      id,
      result: {
        protocolVersion: params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
        serverInfo: { name: "many-skills", version: "1.0.0" },
      },
    });
  else if (method === "tools/list") send({ id, result: { tools: [] } });
  else if (method === "skills/list") {
    pages += 1;
    process.stderr.write(`pages=${pages}\n`);
    const start = Number(params?.cursor ?? 0);
    const end = Math.min(total, start + pageSize);
    const skills = Array.from({ length: end - start }, (_, k) => entry(start + k));
    send({ id, result: end < total ? { skills, nextCursor: String(end) } : { skills } });
  } else if (id !== undefined) send({ id, error: { code: -32601, message: `no method ${method}` } });
});
