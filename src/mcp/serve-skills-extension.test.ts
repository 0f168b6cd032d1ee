import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type Resource, ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { generateSkills } from "../../bench/gen-skills.mjs";
import { createCatalog } from "../catalog/create-catalog.js";
import { createSkillMcpServer, type SkillMcpServerOptions } from "./create-skill-mcp-server.js";
import { SKILLS_EXTENSION } from "./serve-skills-extension.js";

const Entry = z.object({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })),
});
const ListResult = z.object({ skills: z.array(Entry), nextCursor: z.string().optional() });
const GetResult = z.object({ skill: Entry });
const Caching = z.looseObject({ resultType: z.string(), ttlMs: z.number(), cacheScope: z.string() });
const DirResult = z.object({
  resources: z.array(z.looseObject({ uri: z.string() })),
  nextCursor: z.string().optional(),
});

const dirs: string[] = [];
const open: Array<{ client: Client; server: McpServer }> = [];
afterEach(async () => {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
  for (const dir of dirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

async function tempRoot(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-sep2640-")));
  dirs.push(dir);
  return dir;
}

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
}

/** The SEP's worked examples: git-workflow, pdf-processing (templates/regional/…), and a nested skill. */
async function sepTree(): Promise<string> {
  const root = await tempRoot();
  await write(root, {
    "git-workflow/SKILL.md":
      "---\nname: git-workflow\ndescription: Follow this team's Git conventions for branching and commits\n---\n\n# Git\n",
    "pdf-processing/SKILL.md":
      "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\nmetadata:\n  version: 2.1.0\n  tier: 3\nx-custom: [a, b]\n---\n\nUse templates/.\n",
    "pdf-processing/references/FORMS.md": "# Forms\n",
    "pdf-processing/scripts/extract.py": "print('x')\n",
    "pdf-processing/templates/invoice.md": "# Invoice\n",
    "pdf-processing/templates/purchase-order.md": "# PO\n",
    "pdf-processing/templates/regional/eu-invoice.md": "# EU\n",
    "pdf-processing/refunds/SKILL.md":
      "---\nname: refunds\ndescription: Process refunds per policy\n---\n\nBody\n",
    "pdf-processing/refunds/examples/email.md": "Dear customer\n",
  });
  return root;
}

async function connect(root: string, options: Partial<SkillMcpServerOptions> = {}) {
  const catalog = await createCatalog({ roots: [root] });
  const server = await createSkillMcpServer({ catalog, exec: false, ...options });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "sep-2640-test", version: "1.0.0" });
  await client.connect(clientTransport);
  open.push({ client, server });
  return client;
}

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

const sha256 = async (file: string) =>
  `sha256:${createHash("sha256")
    .update(await fs.readFile(file))
    .digest("hex")}`;

/** The file a skill:// URI of the tree names (skill paths here are folder paths). */
const fileOf = (root: string, uri: string) =>
  path.join(root, ...uri.slice("skill://".length).split("/").map(decodeURIComponent));

describe("the Skills Extension (SEP-2640)", () => {
  it("declares io.modelcontextprotocol/skills with directoryRead alongside resources", async () => {
    const client = await connect(await sepTree());
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.resources).toBeDefined();
    expect(capabilities?.extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
  });

  it("lists the worked examples: verbatim frontmatter, every file once with its SHA-256, nested skills flat", async () => {
    const root = await sepTree();
    const client = await connect(root);
    const { entries } = await listAll(client);
    expect(entries.map((e) => e.uri)).toEqual([
      "skill://git-workflow/SKILL.md",
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/refunds/SKILL.md",
    ]);
    const pdf = entries[1]!;
    // Verbatim: what a standard YAML parser reads, types and unknown fields included.
    const text = await fs.readFile(path.join(root, "pdf-processing/SKILL.md"), "utf8");
    expect(pdf.frontmatter).toEqual(parseYaml(text.split("---\n")[1]!));
    expect(pdf.frontmatter).toMatchObject({
      metadata: { version: "2.1.0", tier: 3 },
      "x-custom": ["a", "b"],
    });
    // Complete: the nested skill's files are the encloser's supporting files too.
    expect(pdf.resources.map((r) => r.uri).sort()).toEqual(
      [
        "skill://pdf-processing/SKILL.md",
        "skill://pdf-processing/references/FORMS.md",
        "skill://pdf-processing/refunds/SKILL.md",
        "skill://pdf-processing/refunds/examples/email.md",
        "skill://pdf-processing/scripts/extract.py",
        "skill://pdf-processing/templates/invoice.md",
        "skill://pdf-processing/templates/purchase-order.md",
        "skill://pdf-processing/templates/regional/eu-invoice.md",
      ].sort(),
    );
    expect(pdf.resources[0]?.uri).toBe(pdf.uri);
    for (const entry of entries) {
      // The final skill-path segment is the frontmatter name.
      expect(entry.uri.split("/").at(-2)).toBe(entry.frontmatter["name"]);
      for (const r of entry.resources) {
        expect(r.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(r.digest).toBe(await sha256(fileOf(root, r.uri)));
        // size: the byte length of the same bytes the digest covers.
        expect(r.size).toBe((await fs.stat(fileOf(root, r.uri))).size);
      }
    }
    // Each file read over resources/read is the bytes its digest names.
    const read = await client.readResource({ uri: "skill://pdf-processing/refunds/examples/email.md" });
    expect(read.contents[0]).toMatchObject({ text: "Dear customer\n" });
  });

  it("skills/get returns the listing's entry and -32602 for anything but a served skill's SKILL.md", async () => {
    const client = await connect(await sepTree());
    const { entries } = await listAll(client);
    for (const entry of entries) {
      const got = await client.request({ method: "skills/get", params: { uri: entry.uri } }, GetResult);
      expect(got.skill).toEqual(entry);
    }
    for (const uri of [
      "skill://nope/SKILL.md",
      "skill://pdf-processing/references/FORMS.md",
      "skill://pdf-processing",
      "skill://pdf-processing/templates/SKILL.md",
      "file:///etc/passwd",
    ]) {
      await expect(
        client.request({ method: "skills/get", params: { uri } }, GetResult),
      ).rejects.toMatchObject({
        code: -32602,
      });
    }
    await expect(client.request({ method: "skills/get", params: {} }, GetResult)).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("resources/directory/read lists direct children, directories as inode/directory; -32602 for files", async () => {
    const client = await connect(await sepTree());
    const dir = async (uri: string) =>
      (await client.request({ method: "resources/directory/read", params: { uri } }, DirResult)).resources;
    expect(await dir("skill://pdf-processing/templates")).toEqual([
      {
        uri: "skill://pdf-processing/templates/invoice.md",
        name: "invoice.md",
        mimeType: "text/markdown",
        size: 10,
      },
      {
        uri: "skill://pdf-processing/templates/purchase-order.md",
        name: "purchase-order.md",
        mimeType: "text/markdown",
        size: 5,
      },
      { uri: "skill://pdf-processing/templates/regional", name: "regional", mimeType: "inode/directory" },
    ]);
    const rootChildren = await dir("skill://pdf-processing");
    expect(rootChildren.map((r) => [r.uri, r["mimeType"]])).toEqual([
      ["skill://pdf-processing/SKILL.md", "text/markdown"],
      ["skill://pdf-processing/references", "inode/directory"],
      ["skill://pdf-processing/refunds", "inode/directory"],
      ["skill://pdf-processing/scripts", "inode/directory"],
      ["skill://pdf-processing/templates", "inode/directory"],
    ]);
    expect((await dir("skill://pdf-processing/refunds")).map((r) => r.uri)).toEqual([
      "skill://pdf-processing/refunds/SKILL.md",
      "skill://pdf-processing/refunds/examples",
    ]);
    for (const uri of [
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/nope",
      "skill://nope",
      "skill://",
    ]) {
      await expect(
        client.request({ method: "resources/directory/read", params: { uri } }, DirResult),
      ).rejects.toMatchObject({ code: -32602 });
    }
  });

  it("pages skills/list, resources/list and directories over a generated tree: every skill once, digests true", async () => {
    const root = await tempRoot();
    generateSkills(root, 300, { seed: 7 });
    const client = await connect(root, { paging: { skillsPerPage: 40, childrenPerPage: 2 } });
    const { entries, pages } = await listAll(client);
    expect(pages).toBe(8);
    const names = entries.map((e) => e.frontmatter["name"]);
    expect(new Set(names).size).toBe(300);
    expect(names.length).toBe(300);
    let files = 0;
    for (const entry of entries) {
      const skillDir = path.join(root, String(entry.frontmatter["name"]));
      const text = await fs.readFile(path.join(skillDir, "SKILL.md"), "utf8");
      expect(entry.frontmatter).toEqual(parseYaml(text.split(/^---$/m)[1]!));
      const onDisk = await fs.readdir(skillDir, { recursive: true, withFileTypes: true });
      expect(entry.resources.length).toBe(onDisk.filter((d) => d.isFile()).length);
      for (const r of entry.resources) expect(r.digest).toBe(await sha256(fileOf(root, r.uri)));
      files += entry.resources.length;
    }
    // resources/list: pages of whole skills, every file once.
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      uris.push(...page.resources.map((r: Resource) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(uris.length).toBe(files);
    expect(new Set(uris).size).toBe(files);
    // A directory's pages cover its children.
    const withRefs = entries.find(
      (e) => e.resources.filter((r) => r.uri.includes("/references/")).length >= 3,
    );
    expect(withRefs).toBeDefined();
    const refsDir = withRefs!.uri.replace(/SKILL\.md$/, "references");
    const children: string[] = [];
    cursor = undefined;
    do {
      const page: z.infer<typeof DirResult> = await client.request(
        {
          method: "resources/directory/read",
          params: cursor === undefined ? { uri: refsDir } : { uri: refsDir, cursor },
        },
        DirResult,
      );
      children.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(children).toEqual(
      withRefs!.resources.map((r) => r.uri).filter((u) => u.startsWith(`${refsDir}/`)),
    );
    await expect(
      client.request({ method: "skills/list", params: { cursor: "bogus" } }, ListResult),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("results carry resultType, ttlMs and cacheScope: 0 ms under watch, a minute otherwise, private", async () => {
    const root = await sepTree();
    const caching = async (client: Client) => {
      const list = await client.request({ method: "skills/list", params: {} }, Caching);
      const get = await client.request(
        { method: "skills/get", params: { uri: "skill://git-workflow/SKILL.md" } },
        Caching,
      );
      return [list, get].map(({ resultType, ttlMs, cacheScope }) => ({ resultType, ttlMs, cacheScope }));
    };
    const still = { resultType: "complete", ttlMs: 60_000, cacheScope: "private" };
    expect(await caching(await connect(root))).toEqual([still, still]);
    const watched = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
    expect(await caching(await connect(root, { watch: true }))).toEqual([watched, watched]);
  });

  it("names each SKILL.md resource as its skill, other files by path", async () => {
    const client = await connect(await sepTree());
    const { resources } = await client.listResources();
    const names = new Map(resources.map((r) => [r.uri, r.name]));
    expect(names.get("skill://git-workflow/SKILL.md")).toBe("git-workflow");
    expect(names.get("skill://pdf-processing/SKILL.md")).toBe("pdf-processing");
    expect(names.get("skill://pdf-processing/refunds/SKILL.md")).toBe("refunds");
    expect(names.get("skill://pdf-processing/references/FORMS.md")).toBe(
      "pdf-processing/references/FORMS.md",
    );
  });

  it("does not serve as a skill one over 512 files or 16 MiB, or with a reserved metadata key; -32602 says why", async () => {
    const root = await tempRoot();
    const many: Record<string, string> = {
      "many/SKILL.md": "---\nname: many\ndescription: Too many files\n---\n",
      "heavy/SKILL.md": "---\nname: heavy\ndescription: Too many bytes\n---\n",
      "reserved/SKILL.md":
        "---\nname: reserved\ndescription: Claims a protocol key\nmetadata:\n  io.modelcontextprotocol/skills: x\n---\n",
      "fine/SKILL.md": "---\nname: fine\ndescription: Within every limit\n---\n",
    };
    for (let i = 0; i < 512; i++) many[`many/references/f${i}.md`] = `${i}\n`;
    await write(root, many);
    const chunk = Buffer.alloc(6 * 1024 * 1024, 97);
    for (const n of [1, 2, 3]) await fs.writeFile(path.join(root, `heavy/part${n}.txt`), chunk);
    const client = await connect(root);
    const { entries } = await listAll(client);
    expect(entries.map((e) => e.uri)).toEqual(["skill://fine/SKILL.md"]);
    for (const [uri, why] of [
      ["skill://many/SKILL.md", /513 files, over the 512/],
      ["skill://heavy/SKILL.md", /over the 16777216 bytes/],
      ["skill://reserved/SKILL.md", /metadata key 'io\.modelcontextprotocol\/skills', reserved/],
    ] as const) {
      const error = await client.request({ method: "skills/get", params: { uri } }, GetResult).then(
        () => undefined,
        (e: unknown) => e as { code?: number; message?: string },
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(why);
    }
  });

  it("pages prompts/list like resources/list: every user-invocable skill once, one shared prompt object per skill", async () => {
    const root = await tempRoot();
    generateSkills(root, 120, { seed: 3 });
    const catalog = await createCatalog({ roots: [root] });
    const lists: string[][] = [];
    for (let n = 0; n < 2; n++) {
      const server = await createSkillMcpServer({ catalog, exec: false });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      const client = new Client({ name: "prompts", version: "1.0.0" });
      await client.connect(clientTransport);
      open.push({ client, server });
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
        names.push(...page.prompts.map((p) => p.name));
        expect(page.prompts.length).toBeLessThanOrEqual(100);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(2);
      lists.push(names);
    }
    expect(lists[0]).toHaveLength(120);
    expect(new Set(lists[0]).size).toBe(120);
    expect(lists[1]).toEqual(lists[0]);
    await expect(open[0]!.client.listPrompts({ cursor: "bogus" })).rejects.toMatchObject({ code: -32602 });
  });

  it("under watch, an edited file has its new digest and the client is told the list changed", async () => {
    const root = await sepTree();
    const client = await connect(root, { watch: true });
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed++;
    });
    const get = () =>
      client.request({ method: "skills/get", params: { uri: "skill://git-workflow/SKILL.md" } }, GetResult);
    const before = await get();
    const file = path.join(root, "git-workflow/SKILL.md");
    await fs.writeFile(
      file,
      "---\nname: git-workflow\ndescription: Rebased conventions\nversion: 2\n---\n\n# Git v2\n",
    );
    await expect.poll(() => changed, { timeout: 10_000 }).toBeGreaterThan(0);
    const after = await get();
    expect(after.skill.resources[0]?.digest).toBe(await sha256(file));
    expect(after.skill.resources[0]?.digest).not.toBe(before.skill.resources[0]?.digest);
    expect(after.skill.frontmatter).toEqual({
      name: "git-workflow",
      description: "Rebased conventions",
      version: 2,
    });
    // A supporting file edited in place: its digest follows without any notification.
    const forms = path.join(root, "pdf-processing/references/FORMS.md");
    const digestOf = async () =>
      (
        await client.request(
          { method: "skills/get", params: { uri: "skill://pdf-processing/SKILL.md" } },
          GetResult,
        )
      ).skill.resources.find((r) => r.uri.endsWith("/FORMS.md"))?.digest;
    const old = await digestOf();
    await fs.writeFile(forms, "# Forms, edited\n");
    expect(await digestOf()).toBe(await sha256(forms));
    expect(await digestOf()).not.toBe(old);
  });
});

describe("SEP-2640 serving of single-file skills (NAME.skill.md)", () => {
  it("lists one with its one file, serves its bytes under their digest, and nothing beside it", async () => {
    const root = await tempRoot();
    await write(root, {
      "deploy.skill.md": "---\nname: deploy\ndescription: Deploy the service\n---\n\nRun the pipeline.\n",
      "credentials.txt": "PROD-DB-PASSWORD=hunter2\n",
    });
    const client = await connect(root);
    const { entries } = await listAll(client);
    expect(entries.map((e) => e.uri)).toEqual(["skill://deploy/SKILL.md"]);
    expect(entries[0]?.resources).toEqual([
      {
        uri: "skill://deploy/SKILL.md",
        digest: await sha256(path.join(root, "deploy.skill.md")),
        size: (await fs.stat(path.join(root, "deploy.skill.md"))).size,
      },
    ]);
    const read = await client.readResource({ uri: "skill://deploy/SKILL.md" });
    expect(JSON.stringify(read.contents)).toContain("Run the pipeline.");
    await expect(client.readResource({ uri: "skill://deploy/credentials.txt" })).rejects.toThrow();
    await expect(client.readResource({ uri: "skill://deploy/../credentials.txt" })).rejects.toThrow();
  });
});
