/**
 * The README's "Tools from MCP servers" example on a machine whose registry access needs a company CA:
 * `npx -y @modelcontextprotocol/server-filesystem` is downloaded for real, through an HTTPS registry mirror
 * whose certificate only `NODE_EXTRA_CA_CERTS` makes trusted (support/registry-mirror.ts), with an empty
 * npm cache. skillrt passes the CA file and the registry setting on to the server's launcher; without the
 * CA the start fails with a message naming the environment the server got and how to pass more, and the
 * conversation goes on. Needs the public npm registry (as `npm ci` does) and `openssl`.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, loopbackEnv, startLoopbackProvider } from "./support/loopback-provider.js";
import {
  makeTestCertificates,
  type RegistryMirror,
  startRegistryMirror,
  type TestCertificates,
} from "./support/registry-mirror.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const SKILL = `---
name: read-notes
description: Answer questions about the team's notes in ./notes.
allowed-tools: mcp__files__list_directory mcp__files__read_text_file
---
List ./notes with mcp__files__list_directory, read the relevant files with mcp__files__read_text_file,
and answer from them, naming the file.
`;

/** The README's config, as written there (plus `extra` fields for the files server). */
const readmeConfig = (extra: Record<string, unknown> = {}) => ({
  mcpServers: {
    files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "./notes"], ...extra },
  },
  tools: { gating: "skill" },
});

let certDir: string;
let certificates: TestCertificates;
let mirror: RegistryMirror;
let cwd: string;
let provider: LoopbackProvider | undefined;

beforeAll(async () => {
  assertBuilt();
  certDir = await mkdtemp(path.join(os.tmpdir(), "skillrt-ca-"));
  certificates = await makeTestCertificates(certDir);
  mirror = await startRegistryMirror(certificates);
});
afterAll(async () => {
  await mirror?.close();
  await rm(certDir, { recursive: true, force: true });
});
beforeEach(async () => {
  // The working directory is also HOME (run-cli), so npm's cache starts empty: npx must download.
  cwd = await realpath(await mkdtemp(path.join(os.tmpdir(), "skillrt-npx-ca-")));
  await mkdir(path.join(cwd, "notes"));
  await writeFile(path.join(cwd, "notes", "plan.md"), "Ship on Friday. Ann owns the release.\n");
  await mkdir(path.join(cwd, "skills", "read-notes"), { recursive: true });
  await writeFile(path.join(cwd, "skills", "read-notes", "SKILL.md"), SKILL);
  mirror.log.length = 0;
});
afterEach(async () => {
  await provider?.close();
  provider = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const toolMessages = (body: any): string[] =>
  body.messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content));
const mcpOffered = (body: any): string[] =>
  (body.tools ?? []).map((t: any) => t.function.name).filter((n: string) => n.startsWith("mcp__"));

describe("the README's MCP-servers example behind a registry that needs NODE_EXTRA_CA_CERTS", {
  timeout: 240_000,
}, () => {
  it("npx -y downloads server-filesystem through the mirror and the skill's tools read the notes", async () => {
    await writeFile(path.join(cwd, "skillrt.config.json"), JSON.stringify(readmeConfig()));
    const notes = path.join(cwd, "notes");
    provider = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "read-notes" } }] },
      { toolCalls: [{ name: "mcp__files__list_directory", input: { path: notes } }] },
      { toolCalls: [{ name: "mcp__files__read_text_file", input: { path: path.join(notes, "plan.md") } }] },
      { text: "Ann owns the release (notes/plan.md)." },
    ]);
    const run = await runCli(["ask", "--root", "skills", "Who owns the release?"], {
      cwd,
      env: {
        ...loopbackEnv(provider),
        NODE_EXTRA_CA_CERTS: certificates.caFile,
        npm_config_registry: mirror.url,
      },
      timeoutMs: 200_000,
    });
    expect(run.stderr).not.toMatch(/could not start|internal error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Ann owns the release (notes/plan.md).\n");

    // npm fetched the package's metadata and tarball from the mirror, over the CA-signed TLS.
    expect(mirror.log).toContain("GET /@modelcontextprotocol%2fserver-filesystem 200");
    expect(
      mirror.log.some((l) =>
        /^GET \/@modelcontextprotocol\/server-filesystem\/-\/server-filesystem-[\d.]+\.tgz 200$/.test(l),
      ),
    ).toBe(true);

    const bodies = provider.requests.map((r) => r.body);
    expect(bodies).toHaveLength(4);
    expect(mcpOffered(bodies[0])).toEqual([]);
    expect(mcpOffered(bodies[1]).sort()).toEqual([
      "mcp__files__list_directory",
      "mcp__files__read_text_file",
    ]);
    expect(toolMessages(bodies[2]).join("\n")).toContain("[FILE] plan.md");
    expect(toolMessages(bodies[3]).join("\n")).toContain("Ship on Friday. Ann owns the release.");
    expect(run.stderr).toContain("+ tool mcp__files__list_directory: granted by skill 'read-notes'");
  });

  it("without the CA the server cannot download itself: the error names its environment and how to pass more", async () => {
    // npm's own retries (about a minute) are turned off for this run only; nothing else differs.
    await writeFile(
      path.join(cwd, "skillrt.config.json"),
      JSON.stringify(readmeConfig({ env: { npm_config_fetch_retries: "0" } })),
    );
    provider = await startLoopbackProvider("openai", [{ text: "I cannot read the notes right now." }]);
    const run = await runCli(["ask", "--root", "skills", "Who owns the release?"], {
      cwd,
      env: { ...loopbackEnv(provider), npm_config_registry: mirror.url },
      timeoutMs: 200_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("I cannot read the notes right now.\n");
    const failure = run.stderr.split("\n").find((l) => l.includes("MCP server 'files'")) ?? "";
    expect(failure).toContain(
      "MCP server 'files' ('npx -y @modelcontextprotocol/server-filesystem ./notes') could not start",
    );
    expect(failure).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to verify the first certificate/);
    expect(failure).toMatch(/It got the environment variables [^;]*npm_config_registry/);
    expect(failure).not.toMatch(/It got the environment variables [^;]*NODE_EXTRA_CA_CERTS/);
    expect(failure).toContain('pass more with "env" in mcpServers.files');
    // The mirror was asked and refused at the TLS handshake: no request reached it.
    expect(mirror.log).toEqual([]);
  });
});
