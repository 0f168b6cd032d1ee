import fs from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type CallToolResult,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillSpec, type SkillTree } from "../context/__fixtures__/skill-tree.js";
import { createSkillMcpServer, type SkillMcpServerOptions } from "./create-skill-mcp-server.js";
import { SKILL_URI_TEMPLATE } from "./serve-skill-resources.js";

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

function skills(): SkillSpec[] {
  return [
    {
      name: "pdf",
      description: "Extract text and tables from PDF files.",
      body: "# PDF\n\nSee references/forms.md. Args: $ARGUMENTS first=$0 second=$1",
      frontmatter: { "argument-hint": '"[file] [pages]"' },
      files: {
        "references/forms.md": "# Forms\n\nHow to fill forms.\n",
        "assets/logo.png": PNG,
        "scripts/greet.sh": '#!/bin/sh\n# Greets someone.\necho "hello $1"\n',
        ".env": "TOKEN=do-not-serve\n",
      },
    },
    { name: "docx", description: "Create and edit Word documents." },
    {
      name: "secret-ops",
      description: "Operations only people may trigger.",
      frontmatter: { "disable-model-invocation": "true" },
    },
    {
      name: "background",
      description: "Background knowledge for the model.",
      frontmatter: { "user-invocable": "false" },
    },
  ];
}

let tree: SkillTree | undefined;
const open: Array<{ client: Client; server: McpServer }> = [];
afterEach(async () => {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
  await tree?.cleanup();
  tree = undefined;
});

async function connect(options: Partial<SkillMcpServerOptions> = {}) {
  tree ??= await makeSkillTree(skills());
  const server = await createSkillMcpServer({
    catalog: tree.catalog,
    exec: { executor: "local" },
    ...options,
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientTransport);
  open.push({ client, server });
  return { client, server, tree };
}

function textOf(content: { text: string } | { blob: string } | undefined): string | undefined {
  return content !== undefined && "text" in content ? content.text : undefined;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { text: first?.type === "text" ? first.text : "", isError: result.isError === true };
}

describe("tools", () => {
  it("lists the canonical skill tools with the catalog in the load tool and the instructions", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "skill_load",
      "skill_read",
      "skill_list_docs",
      "skill_select_docs",
      "skill_unload",
      "skill_search",
      "skill_run",
    ]);
    const load = tools.find((t) => t.name === "skill_load");
    expect(load?.description).toContain("- pdf: Extract text and tables from PDF files.");
    expect(load?.description).toContain("- docx:");
    expect(load?.description).not.toContain("secret-ops");
    expect(load?.inputSchema.properties?.["name"]).toMatchObject({ enum: ["background", "docx", "pdf"] });
    expect(load?.inputSchema.required).toEqual(["name"]);
    expect(client.getInstructions()).toContain("- pdf: Extract text and tables from PDF files.");
  });

  it("skill_load returns the body in <skill_content>, every time it is called", async () => {
    const { client } = await connect();
    const first = await call(client, "skill_load", { name: "pdf", args: "a.pdf 3" });
    expect(first.isError).toBe(false);
    expect(first.text).toMatch(/^<skill_content name="pdf">/);
    expect(first.text).toContain("Args: a.pdf 3 first=a.pdf second=3");
    expect(first.text).toContain("references/forms.md");
    const again = await call(client, "skill_load", { name: "pdf", args: "a.pdf 3" });
    expect(again.text).toBe(first.text);
  });

  it("answers an unknown or hidden skill with an error result naming the closest skills", async () => {
    const { client } = await connect();
    const typo = await call(client, "skill_load", { name: "pdff" });
    expect(typo.isError).toBe(true);
    expect(typo.text).toMatch(/Skill 'pdff' not found/);
    expect(typo.text).toContain("pdf");
    const hidden = await call(client, "skill_load", { name: "secret-ops" });
    expect(hidden.isError).toBe(true);
    expect(hidden.text).not.toContain("Operations only people may trigger");
  });

  it("reads files, reports missing ones with the available paths, and rejects malformed input", async () => {
    const { client } = await connect();
    const read = await call(client, "skill_read", { name: "pdf", path: "references/forms.md" });
    expect(read).toMatchObject({ isError: false });
    expect(read.text).toContain("How to fill forms.");
    const missing = await call(client, "skill_read", { name: "pdf", path: "references/nope.md" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/Available paths:\n1\. SKILL\.md/);
    const climb = await call(client, "skill_read", { name: "pdf", path: "../docx/SKILL.md" });
    expect(climb.isError).toBe(true);
    const bad = await call(client, "skill_read", { name: "pdf" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Invalid arguments for skill_read: path/);
  });

  it("runs commands with skill_run and offers a loaded skill's scripts as tools", async () => {
    const { client } = await connect();
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    const ran = await call(client, "skill_run", { name: "pdf", command: ["sh", "scripts/greet.sh", "mcp"] });
    expect(ran.isError).toBe(false);
    expect(ran.text).toContain("exit code: 0");
    expect(ran.text).toContain("hello mcp");
    const refused = await call(client, "skill_run", { name: "pdff", command: "true" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/not found.*pdf/s);
    // Killed by its timeout: an error result, with the run's structured record saying why.
    const slow = await client.callTool({
      name: "skill_run",
      arguments: { name: "pdf", command: ["sleep", "30"], timeout: 1 },
    });
    expect(slow.isError).toBe(true);
    expect(slow.structuredContent).toMatchObject({ timed_out: true });

    await call(client, "skill_load", { name: "pdf" });
    await changed;
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("pdf__greet");
    const script = await call(client, "pdf__greet", { args: ["script"] });
    expect(script.text).toContain("hello script");
  });

  it("tells a client that asked for progress how a long skill_run goes: its latest output line", async () => {
    const { client } = await connect();
    const reports: Array<{ progress: number; message?: string | undefined }> = [];
    const result = (await client.callTool(
      {
        name: "skill_run",
        arguments: {
          name: "pdf",
          command: ["sh", "-c", "echo 'step 1 of 2'; sleep 1; echo 'step 2 of 2'; sleep 1"],
        },
      },
      undefined,
      { onprogress: (p) => reports.push({ progress: p.progress, message: p.message }) },
    )) as CallToolResult;
    expect(result.isError).not.toBe(true);
    // The SDK forgets a call's progress handler once the result is read: a report sent with it may be lost,
    // so the first report (and the order) is what is certain.
    expect(reports[0]?.message).toBe("step 1 of 2");
    expect(reports.map((r) => r.progress)).toEqual([...reports.map((r) => r.progress)].sort((a, b) => a - b));
    // A call without a progress token gets none (and still runs).
    const quiet = await call(client, "skill_run", { name: "pdf", command: ["sh", "-c", "echo hi"] });
    expect(quiet.text).toContain("hi");
  });

  it("answers a successful skill_run with structuredContent matching its outputSchema, with annotations", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const run = tools.find((t) => t.name === "skill_run");
    expect(run?.outputSchema).toMatchObject({
      type: "object",
      properties: {
        exit_code: { type: "number" },
        stdout: { type: "string" },
        timed_out: { type: "boolean" },
      },
    });
    expect(run?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    const load = tools.find((t) => t.name === "skill_load");
    expect(load?.outputSchema).toBeUndefined();
    expect(load?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    // The SDK client validates structuredContent against the listed outputSchema.
    const result = (await client.callTool({
      name: "skill_run",
      arguments: { name: "pdf", command: "echo out; echo err >&2; exit 4" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      skill: "pdf",
      exit_code: 4,
      stdout: "out\n",
      stderr: "err\n",
      timed_out: false,
      output_files: [],
    });
    expect(textOf(result.content[0] as { text: string })).toContain("exit code: 4");
    const refused = (await client.callTool({
      name: "skill_run",
      arguments: { name: "pdf", command: "pwd", cwd: "/" },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
  });

  it("marks failed calls isError: unknown skill, missing doc, bad arguments, oversized arguments", async () => {
    const { client } = await connect();
    expect((await call(client, "skill_list_docs", { name: "nope" })).isError).toBe(true);
    expect((await call(client, "skill_unload", { name: "pdf" })).isError).toBe(true);
    expect((await call(client, "skill_read", { name: "pdf", path: "missing.md" })).isError).toBe(true);
    expect((await call(client, "skill_read", { name: "pdf", path: "SKILL.md" })).isError).toBe(false);
    const bad = await call(client, "skill_run", { name: "pdf" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Invalid arguments for skill_run: command/);
    const big = await call(client, "skill_run", {
      name: "pdf",
      command: "true",
      stdin: "x".repeat(2 * 1024 * 1024),
    });
    expect(big.isError).toBe(true);
    expect(big.text).toMatch(/were 2.0 MiB, over the 1.0 MiB limit; the call was not run/);
  });

  it("leaves out skill_run and never mentions it when execution is disabled", async () => {
    const { client } = await connect({ exec: false });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain("skill_run");
    expect(client.getInstructions()).not.toContain("skill_run");
    await expect(client.callTool({ name: "skill_run", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe("resources", () => {
  it("lists every file of the served skills, with mime types, and never hidden files", async () => {
    const { client } = await connect({ exec: false });
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        "skill://pdf/SKILL.md",
        "skill://pdf/references/forms.md",
        "skill://pdf/assets/logo.png",
        "skill://pdf/scripts/greet.sh",
        "skill://docx/SKILL.md",
        "skill://secret-ops/SKILL.md",
      ]),
    );
    expect(uris.some((u) => u.includes(".env"))).toBe(false);
    expect(resources.find((r) => r.uri === "skill://pdf/assets/logo.png")?.mimeType).toBe("image/png");
    expect(resources.find((r) => r.uri === "skill://pdf/SKILL.md")).toMatchObject({
      mimeType: "text/markdown",
      description: "Extract text and tables from PDF files.",
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([SKILL_URI_TEMPLATE]);
    const completion = await client.complete({
      ref: { type: "ref/resource", uri: SKILL_URI_TEMPLATE },
      argument: { name: "path", value: "ref" },
      context: { arguments: { name: "pdf" } },
    });
    expect(completion.completion.values).toEqual(["references/forms.md"]);
  });

  it("reads SKILL.md and references as text and assets as base64 blobs", async () => {
    const { client } = await connect({ exec: false });
    const skillMd = await client.readResource({ uri: "skill://pdf/SKILL.md" });
    expect(skillMd.contents[0]).toMatchObject({ uri: "skill://pdf/SKILL.md", mimeType: "text/markdown" });
    expect(textOf(skillMd.contents[0])).toMatch(/^---\nname: pdf\n/);
    const forms = await client.readResource({ uri: "skill://pdf/references/forms.md" });
    expect(textOf(forms.contents[0])).toBe("# Forms\n\nHow to fill forms.\n");
    const logo = await client.readResource({ uri: "skill://pdf/assets/logo.png" });
    expect(logo.contents[0]?.["mimeType"]).toBe("image/png");
    const blob = logo.contents[0];
    expect(blob !== undefined && "blob" in blob ? Buffer.from(blob.blob, "base64") : undefined).toEqual(
      Buffer.from(PNG),
    );
  });

  it("refuses paths that climb out of the skill, symlinks leaving it, hidden files and unknown skills", async () => {
    const { client, tree } = await connect({ exec: false });
    await fs.writeFile(path.join(tree.root, "outside.txt"), "host secret\n");
    await fs.symlink(
      path.join(tree.root, "outside.txt"),
      path.join(tree.root, "skills/pdf/references/leak.md"),
    );
    const read = (uri: string) => client.readResource({ uri });
    await expect(read("skill://pdf/..%2F..%2Foutside.txt")).rejects.toThrow(/Refused.*'\.\.' is not allowed/);
    await expect(read("skill://pdf/references/leak.md")).rejects.toThrow(/Refused.*outside the skill/);
    await expect(read("skill://pdf/.env")).rejects.toThrow(/No file '\.env' in skill 'pdf'/);
    await expect(read("skill://pdf/../docx/SKILL.md")).rejects.toThrow(McpError);
    await expect(read("skill://pdff/SKILL.md")).rejects.toThrow(/Unknown skill 'pdff'.*Closest: pdf/);
  });
});

describe("prompts", () => {
  it("offers one prompt per user-invocable skill and substitutes its arguments", async () => {
    const { client } = await connect({ exec: false });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["docx", "pdf", "secret-ops"]);
    const pdf = prompts.find((p) => p.name === "pdf");
    expect(pdf?.description).toBe("Extract text and tables from PDF files.");
    expect(pdf?.arguments).toEqual([
      { name: "args", description: "Arguments for the skill, e.g. [file] [pages]", required: false },
    ]);
    const got = await client.getPrompt({ name: "pdf", arguments: { args: "report.pdf 7" } });
    expect(got.messages).toHaveLength(1);
    expect(got.messages[0]?.role).toBe("user");
    const content = got.messages[0]?.content;
    expect(content?.type === "text" ? content.text : "").toContain(
      "Args: report.pdf 7 first=report.pdf second=7",
    );
    const secret = await client.getPrompt({ name: "secret-ops" });
    const secretContent = secret.messages[0]?.content;
    expect(secretContent?.type === "text" ? secretContent.text : "").toContain(
      '<skill_content name="secret-ops">',
    );
  });
});

describe("watching", () => {
  it("tells the client when a skill appears, and serves it", async () => {
    const { client, tree } = await connect({ exec: false, watch: true });
    const notified = (schema: typeof ToolListChangedNotificationSchema) =>
      new Promise<void>((resolve) => client.setNotificationHandler(schema, () => resolve()));
    const tools = notified(ToolListChangedNotificationSchema);
    const prompts = new Promise<void>((resolve) =>
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()),
    );
    const resources = new Promise<void>((resolve) =>
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()),
    );
    const dir = path.join(tree.root, "skills", "xlsx");
    await fs.mkdir(dir);
    await fs.writeFile(
      path.join(dir, "SKILL.md"),
      "---\nname: xlsx\ndescription: Edit spreadsheets.\n---\n\nUse cells.\n",
    );
    await Promise.all([tools, prompts, resources]);
    const load = (await client.listTools()).tools.find((t) => t.name === "skill_load");
    expect(load?.description).toContain("- xlsx: Edit spreadsheets.");
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain("xlsx");
    expect((await call(client, "skill_load", { name: "xlsx" })).text).toContain("Use cells.");
  });
});
