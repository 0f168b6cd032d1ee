/**
 * SEP-2640 end to end: `skillrt mcp --watch` as a real process over a generated tree of 300 skills
 * (bodies, scripts, references, binary assets), reached by the MCP SDK client over stdio and over
 * Streamable HTTP. `skills/list` pages cover every skill once; every digest is the SHA-256 of the file
 * on disk and of the bytes `resources/read` returns; frontmatter is what a YAML parser reads; `skills/get`
 * and `resources/directory/read` answer per the SEP; unknown URIs get -32602; an edited file shows its
 * new digest. (bench/mcp-http.mjs runs 2,500 skills and 10,000.)
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { generateSkills } from "../../bench/gen-skills.mjs";
import { startMcpHttp } from "./support/mcp-http-server.js";
import { assertBuilt } from "./support/run-cli.js";

const repo = path.resolve(import.meta.dirname, "../..");
const bin = path.join(repo, "bin", "skillrt.js");
const SKILLS = 300;

const Entry = z.object({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(z.object({ uri: z.string(), digest: z.string() })),
});
const ListResult = z.object({ skills: z.array(Entry), nextCursor: z.string().optional() });
const GetResult = z.object({ skill: Entry });
const DirResult = z.object({
  resources: z.array(z.looseObject({ uri: z.string(), name: z.string(), mimeType: z.string().optional() })),
  nextCursor: z.string().optional(),
});

let root: string;
let home: string;
beforeAll(async () => {
  assertBuilt();
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-mcp-skills-")));
  root = path.join(home, "skills");
  generateSkills(root, SKILLS, { seed: 11 });
}, 120_000);
afterAll(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

const env = () => ({
  PATH: process.env["PATH"] ?? "/usr/bin:/bin",
  HOME: home,
  NO_COLOR: "1",
  SKILLRT_CACHE: "0",
});
const args = () => ["--root", root, "--no-exec", "--watch"];
const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const fileOf = (uri: string) =>
  path.join(root, ...uri.slice("skill://".length).split("/").map(decodeURIComponent));

async function listAll(client: Client) {
  const entries: z.infer<typeof Entry>[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.request(
      { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
      ListResult,
    );
    entries.push(...page.skills);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { entries, pages };
}

async function expectInvalidParams(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toMatchObject({ code: -32602 });
}

/** Every check of the SEP against one connected client. */
async function verify(client: Client): Promise<void> {
  expect(client.getServerCapabilities()?.extensions?.["io.modelcontextprotocol/skills"]).toEqual({
    directoryRead: true,
  });
  const { entries, pages } = await listAll(client);
  expect(pages).toBe(Math.ceil(SKILLS / 100));
  const dirs = (await fs.readdir(root)).sort();
  expect(entries.map((e) => e.frontmatter["name"]).sort()).toEqual(dirs);
  let files = 0;
  for (const entry of entries) {
    const name = String(entry.frontmatter["name"]);
    expect(entry.uri).toBe(`skill://${name}/SKILL.md`);
    const text = await fs.readFile(path.join(root, name, "SKILL.md"), "utf8");
    expect(entry.frontmatter).toEqual(parseYaml(text.split(/^---$/m)[1] ?? ""));
    const onDisk = (await fs.readdir(path.join(root, name), { recursive: true, withFileTypes: true })).filter(
      (d) => d.isFile(),
    );
    expect(entry.resources.length).toBe(onDisk.length);
    expect(new Set(entry.resources.map((r) => r.uri)).size).toBe(onDisk.length);
    for (const r of entry.resources) expect(r.digest).toBe(sha256(await fs.readFile(fileOf(r.uri))));
    files += onDisk.length;
  }
  expect(files).toBeGreaterThan(SKILLS * 2);

  // skills/get and resources/read of a sample: the same entry, the bytes the digests name.
  for (const entry of entries.filter((_, i) => i % 30 === 0)) {
    const got = await client.request({ method: "skills/get", params: { uri: entry.uri } }, GetResult);
    expect(got.skill).toEqual(entry);
    for (const r of entry.resources) {
      const read = (await client.readResource({ uri: r.uri })).contents[0];
      const bytes =
        read !== undefined && "blob" in read
          ? Buffer.from(read.blob, "base64")
          : Buffer.from(read !== undefined && "text" in read ? read.text : "");
      expect(sha256(bytes)).toBe(r.digest);
    }
  }

  // resources/directory/read: the skill root's direct children, subdirectories as inode/directory.
  const withDirs = entries.find((e) => e.resources.some((r) => r.uri.includes("/scripts/")))!;
  const name = String(withDirs.frontmatter["name"]);
  const children = await client.request(
    { method: "resources/directory/read", params: { uri: `skill://${name}` } },
    DirResult,
  );
  const expected = (await fs.readdir(path.join(root, name), { withFileTypes: true })).map((d) => [
    `skill://${name}/${d.name}`,
    d.isDirectory() ? "inode/directory" : expect.any(String),
  ]);
  expect(children.resources.map((r) => [r.uri, r.mimeType])).toEqual(expect.arrayContaining(expected));
  expect(children.resources.length).toBe(expected.length);
  const scripts = await client.request(
    { method: "resources/directory/read", params: { uri: `skill://${name}/scripts` } },
    DirResult,
  );
  expect(scripts.resources.map((r) => r.name).sort()).toEqual(
    (await fs.readdir(path.join(root, name, "scripts"))).sort(),
  );

  // Unknown URIs: -32602 from every method.
  await expectInvalidParams(
    client.request({ method: "skills/get", params: { uri: "skill://no-such-skill/SKILL.md" } }, GetResult),
  );
  await expectInvalidParams(
    client.request({ method: "skills/get", params: { uri: withDirs.resources[1]!.uri } }, GetResult),
  );
  await expectInvalidParams(
    client.request(
      { method: "resources/directory/read", params: { uri: `skill://${name}/SKILL.md` } },
      DirResult,
    ),
  );
  await expectInvalidParams(
    client.request(
      { method: "resources/directory/read", params: { uri: "skill://no-such-skill" } },
      DirResult,
    ),
  );
  await expectInvalidParams(client.readResource({ uri: `skill://${name}/no-such-file.md` }));
}

/** Edits one SKILL.md and waits until skills/get shows the new digest (the watcher re-scanned). */
async function verifyEdit(client: Client, skill: string, marker: string): Promise<void> {
  const file = path.join(root, skill, "SKILL.md");
  const uri = `skill://${skill}/SKILL.md`;
  const before = (await client.request({ method: "skills/get", params: { uri } }, GetResult)).skill;
  const text = await fs.readFile(file, "utf8");
  await fs.writeFile(file, `${text}\n${marker}\n`);
  const digest = sha256(await fs.readFile(file));
  expect(digest).not.toBe(before.resources[0]?.digest);
  await expect
    .poll(
      async () =>
        (await client.request({ method: "skills/get", params: { uri } }, GetResult)).skill.resources[0]
          ?.digest,
      {
        timeout: 15_000,
      },
    )
    .toBe(digest);
  const read = (await client.readResource({ uri })).contents[0];
  expect(read !== undefined && "text" in read ? read.text : "").toContain(marker);
}

describe("skillrt mcp serves SEP-2640 over a generated tree", () => {
  it("over stdio", async () => {
    const client = new Client({ name: "e2e-stdio", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, "mcp", ...args()],
        env: env(),
        stderr: "ignore",
      }),
    );
    try {
      await verify(client);
      await verifyEdit(client, (await fs.readdir(root)).sort()[3]!, "<!-- edited over stdio -->");
    } finally {
      await client.close();
    }
  }, 180_000);

  it("over Streamable HTTP", async () => {
    const server = await startMcpHttp(args(), env());
    const client = new Client({ name: "e2e-http", version: "1" });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }),
      );
      await verify(client);
      await verifyEdit(client, (await fs.readdir(root)).sort()[5]!, "<!-- edited over http -->");
    } finally {
      await client.close();
      expect(await server.stop()).toBe(0);
    }
  }, 180_000);
});
