/**
 * The README's "Tools from MCP servers" example behind a TLS-inspecting company proxy: skillrt's parent
 * environment holds `HTTPS_PROXY`/`https_proxy` (a loopback proxy that terminates TLS with certificates of a
 * throwaway CA, support/intercepting-proxy.ts) and `NODE_EXTRA_CA_CERTS` (that CA), HOME is an empty temp
 * folder (so npm's cache, `~/.npm`, is empty and `npx -y` downloads from the real registry through the
 * proxy). The skill and the config are read from the README's example. Without the CA the start fails with a message naming the
 * environment the server got and how to pass more, and the conversation goes on. Needs the public npm
 * registry (as `npm ci` does) and `openssl`: without them it fails, it does not skip.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type InterceptingProxy,
  makeTestCa,
  startInterceptingProxy,
  type TestCa,
} from "./support/intercepting-proxy.js";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli, writeTrustedConfig } from "./support/run-cli.js";

/** The README's "Tools from MCP servers" section: the skill and the config it writes, read from it. */
const README = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
const SECTION = README.slice(README.indexOf("## Tools from MCP servers"), README.indexOf("## Library"));
const between = (open: string, close: string): string => {
  const from = SECTION.indexOf(open);
  const to = SECTION.indexOf(close, from + open.length);
  if (from < 0 || to < 0)
    throw new Error(`the README's MCP-servers example has no ${open.trim()} … ${close.trim()}`);
  return SECTION.slice(from + open.length, to + 1);
};
const SKILL = between("<<'MD'\n", "\nMD\n");
const README_CONFIG = between("<<'JSON'\n", "\nJSON\n");

let caDir: string;
let ca: TestCa;
let proxy: InterceptingProxy;
let cwd: string;
let provider: LoopbackProvider | undefined;

beforeAll(async () => {
  assertBuilt();
  // No network is a failure with its reason, not a skip and not an npx error to decode.
  const reachable = await fetch("https://registry.npmjs.org/@modelcontextprotocol%2fserver-filesystem", {
    method: "HEAD",
    signal: AbortSignal.timeout(30_000),
  }).then(
    (r) => `HTTP ${r.status}`,
    (e: Error) => `${e.message} (${String((e.cause as Error | undefined)?.message ?? "")})`,
  );
  if (reachable !== "HTTP 200")
    throw new Error(`this test needs the public npm registry (as npm ci does); it answered: ${reachable}`);
  caDir = await mkdtemp(path.join(os.tmpdir(), "skillrt-proxy-ca-"));
  ca = await makeTestCa(caDir);
  proxy = await startInterceptingProxy(ca);
});
afterAll(async () => {
  await proxy?.close();
  await rm(caDir, { recursive: true, force: true });
});
beforeEach(async () => {
  // The working directory is also HOME (run-cli): npm's cache (~/.npm) starts empty, so npx must download.
  cwd = await realpath(await mkdtemp(path.join(os.tmpdir(), "skillrt-npx-proxy-")));
  await mkdir(path.join(cwd, "notes"));
  await writeFile(path.join(cwd, "notes", "plan.md"), "Ship on Friday. Ann owns the release.\n");
  await mkdir(path.join(cwd, "skills", "read-notes"), { recursive: true });
  await writeFile(path.join(cwd, "skills", "read-notes", "SKILL.md"), SKILL);
  await writeTrustedConfig(cwd, README_CONFIG);
  proxy.log.length = 0;
});
afterEach(async () => {
  await provider?.close();
  provider = undefined;
  await rm(cwd, { recursive: true, force: true });
});

/** The company network as the parent environment sees it (plus the scripted model). */
const network = (p: LoopbackProvider, withCa: boolean): Record<string, string> => ({
  OPENAI_BASE_URL: p.baseURL,
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
  HTTPS_PROXY: proxy.url,
  https_proxy: proxy.url,
  // The scripted model is on loopback: skillrt's own requests do not go through the proxy.
  NO_PROXY: "127.0.0.1,localhost",
  no_proxy: "127.0.0.1,localhost",
  ...(withCa ? { NODE_EXTRA_CA_CERTS: ca.caFile } : {}),
});
const toolMessages = (body: any): string[] =>
  body.messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content));

describe("the README's MCP-servers example behind a TLS-inspecting proxy that needs NODE_EXTRA_CA_CERTS", {
  timeout: 240_000,
}, () => {
  it("npx -y downloads server-filesystem from the registry through the proxy and its tool lists the notes", async () => {
    const notes = path.join(cwd, "notes");
    provider = await startLoopbackProvider("openai", [
      { toolCalls: [{ name: "skill_load", input: { name: "read-notes" } }] },
      { toolCalls: [{ name: "mcp__files__list_directory", input: { path: notes } }] },
      { text: "The notes folder holds plan.md." },
    ]);
    expect(JSON.parse(README_CONFIG).mcpServers.files.args).toEqual([
      "-y",
      "@modelcontextprotocol/server-filesystem",
      "./notes",
    ]);
    expect(SKILL).toContain("allowed-tools: mcp__files__list_directory mcp__files__read_text_file");
    expect(existsSync(path.join(cwd, ".npm"))).toBe(false);
    const run = await runCli(["ask", "--root", "skills", "Which notes are there?"], {
      cwd,
      env: network(provider, true),
      timeoutMs: 200_000,
    });
    expect(run.stderr).not.toMatch(/could not start|internal error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The notes folder holds plan.md.\n");
    // The server's own answer (not the script's) holds the file name.
    const bodies = provider.requests.map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(toolMessages(bodies[2]).join("\n")).toContain("[FILE] plan.md");
    expect(run.stderr).toContain("+ tool mcp__files__list_directory: granted by skill 'read-notes'");

    // npm downloaded into the empty cache under HOME, and every registry request went through the proxy,
    // over TLS that only the CA made trusted.
    expect(existsSync(path.join(cwd, ".npm", "_npx"))).toBe(true);
    expect(proxy.log).toContain("CONNECT registry.npmjs.org:443");
    expect(proxy.log).toContain(
      "GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-filesystem 200",
    );
    expect(
      proxy.log.some((l) =>
        /^GET https:\/\/registry\.npmjs\.org\/@modelcontextprotocol\/server-filesystem\/-\/server-filesystem-[\d.]+\.tgz 200$/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(proxy.log.filter((l) => l.startsWith("TLS "))).toEqual([]);
  });

  it("without NODE_EXTRA_CA_CERTS the start fails naming the server's environment and how to pass more", async () => {
    // npm's own retries (about a minute) are turned off in npm's user config; skillrt's config is unchanged.
    await writeFile(path.join(cwd, ".npmrc"), "fetch-retries=0\n");
    provider = await startLoopbackProvider("openai", [{ text: "I cannot read the notes right now." }]);
    const run = await runCli(["ask", "--root", "skills", "Which notes are there?"], {
      cwd,
      env: network(provider, false),
      timeoutMs: 200_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("I cannot read the notes right now.\n");
    const failure = run.stderr.split("\n").find((l) => l.includes("MCP server 'files'")) ?? "";
    expect(failure).toContain(
      "MCP server 'files' ('npx -y @modelcontextprotocol/server-filesystem ./notes') could not start",
    );
    expect(failure).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to (verify|get local issuer)/i);
    expect(failure).toMatch(/It got the environment variables [^;]*HTTPS_PROXY, [^;]*https_proxy/);
    expect(failure).not.toMatch(/It got the environment variables [^;]*NODE_EXTRA_CA_CERTS/);
    expect(failure).toContain('pass more with "env" in mcpServers.files');
    expect(failure).toContain(
      "A certificate was not trusted: behind a company CA or TLS-inspecting proxy, set NODE_EXTRA_CA_CERTS (npx, Node)",
    );
    // npm did reach the proxy, and the handshake is where it stopped: no request was forwarded.
    expect(proxy.log).toContain("CONNECT registry.npmjs.org:443");
    expect(proxy.log.filter((l) => l.startsWith("GET "))).toEqual([]);
  });
});
