import path from "node:path";
import { asSchema, type Tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServersConfig } from "../../config/mcp-servers-config.js";
import { createToolRegistry } from "../tool-registry.js";
import { createMcpToolSource, type McpSourceEvent, type McpToolSource } from "./create-mcp-tool-source.js";
import { type McpToolResult, mcpResultText } from "./mcp-tool-result.js";
import { certificateHint, serverEnvironment } from "./server-environment.js";

const reporter = path.join(import.meta.dirname, "__fixtures__", "env-report-server.mjs");
const host = {
  NODE_EXTRA_CA_CERTS: "/etc/corp/ca.pem",
  HTTPS_PROXY: "http://proxy.corp:3128",
  npm_config_registry: "https://npm.corp/",
  AWS_SECRET_ACCESS_KEY: "not-for-servers",
};

let source: McpToolSource | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

async function open(servers: McpServersConfig) {
  const registry = createToolRegistry();
  const events: McpSourceEvent[] = [];
  source = createMcpToolSource({ servers, registry, env: host, onEvent: (e) => events.push(e) });
  await source.start();
  return { registry, events };
}

async function envNames(servers: McpServersConfig): Promise<string[]> {
  const { registry } = await open(servers);
  const t = registry.get("mcp__env__env_names")?.tool as Tool;
  await asSchema(t.inputSchema).validate?.({});
  const result = (await t.execute?.({}, {
    toolCallId: "c",
    messages: [],
    context: undefined,
  } as never)) as McpToolResult;
  return mcpResultText(result).split("\n");
}

describe("the environment of a stdio MCP server", { timeout: 60_000 }, () => {
  it("is the SDK's minimal set plus the registry variables that are set; the configured env wins", () => {
    const env = serverEnvironment(host, { HTTPS_PROXY: "http://other:8080" }, undefined);
    expect(env["NODE_EXTRA_CA_CERTS"]).toBe("/etc/corp/ca.pem");
    expect(env["npm_config_registry"]).toBe("https://npm.corp/");
    expect(env["HTTPS_PROXY"]).toBe("http://other:8080");
    expect(env["AWS_SECRET_ACCESS_KEY"]).toBeUndefined();
    expect(
      serverEnvironment({ NPM_CONFIG_CA: "pem", NPM_CONFIG_STRICT_SSL: "true" }, {}, undefined),
    ).toMatchObject({
      NPM_CONFIG_CA: "pem",
      NPM_CONFIG_STRICT_SSL: "true",
    });
    expect(env["PATH"]).toBe(process.env["PATH"]);
    expect(serverEnvironment(host, {}, false)["NODE_EXTRA_CA_CERTS"]).toBeUndefined();
    expect(serverEnvironment(host, {}, ["AWS_SECRET_ACCESS_KEY"])["AWS_SECRET_ACCESS_KEY"]).toBe(
      "not-for-servers",
    );
  });

  it("a server started from a config gets NODE_EXTRA_CA_CERTS and the proxy, not the host's other variables", async () => {
    const lines = await envNames({ env: { command: process.execPath, args: [reporter] } });
    expect(lines).toContain("NODE_EXTRA_CA_CERTS");
    expect(lines).toContain("HTTPS_PROXY");
    expect(lines).toContain("PATH");
    expect(lines).not.toContain("AWS_SECRET_ACCESS_KEY");
    expect(lines.at(-1)).toBe("CA=/etc/corp/ca.pem");
  });

  it('"inheritEnv": false leaves the registry variables out', async () => {
    const lines = await envNames({ env: { command: process.execPath, args: [reporter], inheritEnv: false } });
    expect(lines).not.toContain("NODE_EXTRA_CA_CERTS");
    expect(lines.at(-1)).toBe("CA=");
  });

  it("a start failure names the variables the server got (names only) and how to pass more", async () => {
    const { events } = await open({
      broken: {
        command: process.execPath,
        args: ["-e", "console.error('cannot reach registry'); process.exit(3)"],
      },
    });
    const failure = events.find((e) => e.type === "mcp-server-error");
    expect(failure?.message).toContain("its last output: cannot reach registry");
    expect(failure?.message).toMatch(
      /It got the environment variables [A-Z_, a-z]*HTTPS_PROXY[A-Z_, a-z]*NODE_EXTRA_CA_CERTS/,
    );
    expect(failure?.message).toContain('pass more with "env" in mcpServers.broken');
    expect(failure?.message).not.toContain("proxy.corp");
    expect(failure?.message).not.toContain("/etc/corp/ca.pem");
  });

  it("a launcher's closing pointer to its log file is passed over for the line that says why", async () => {
    const { events } = await open({
      npx: {
        command: process.execPath,
        args: [
          "-e",
          "console.error('npm error code UNABLE_TO_VERIFY_LEAF_SIGNATURE\\nnpm error request to https://registry.corp/x failed, reason: unable to verify the first certificate\\nnpm error A complete log of this run can be found in: /home/u/.npm/_logs/debug-0.log'); process.exit(1)",
        ],
      },
    });
    const failure = events.find((e) => e.type === "mcp-server-error");
    expect(failure?.message).toContain(
      "its last output: npm error request to https://registry.corp/x failed, reason: unable to verify the first certificate",
    );
    expect(failure?.message).toMatch(/first certificate\. It got the environment/);
    // The CA variable was passed, so the hint is to check its file.
    expect(failure?.message).toMatch(
      /"inheritEnv"\. A certificate was not trusted although NODE_EXTRA_CA_CERTS was passed: check that its file holds the CA/,
    );
  });

  it("an untrusted certificate without NODE_EXTRA_CA_CERTS: the failure says to set it (or SSL_CERT_FILE)", async () => {
    const { events } = await open({
      uvx: {
        command: process.execPath,
        args: [
          "-e",
          "console.error('error: request failed: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain'); process.exit(1)",
        ],
        inheritEnv: false,
      },
    });
    const failure = events.find((e) => e.type === "mcp-server-error");
    expect(failure?.message).toContain(
      "A certificate was not trusted: behind a company CA or TLS-inspecting proxy, set NODE_EXTRA_CA_CERTS (npx, Node) or SSL_CERT_FILE (uvx, Python) to the CA's file where skillrt runs",
    );
    expect(failure?.message).not.toContain("/etc/corp/ca.pem");
  });

  it("gives no certificate hint for other failures, and knows Node's, npm's and Python's wordings", () => {
    expect(certificateHint("npm error code E404\nnpm error 404 Not Found", [])).toBe("");
    expect(certificateHint("Error: connect ECONNREFUSED 127.0.0.1:3128", [])).toBe("");
    for (const said of [
      "npm error code UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
      "reason: unable to get local issuer certificate",
      "SELF_SIGNED_CERT_IN_CHAIN",
      "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed",
    ])
      expect(certificateHint(said, ["HOME", "PATH"])).toMatch(/^\. A certificate was not trusted: /);
  });

  it("a server that does not answer in startTimeoutMs fails with the setting named", async () => {
    const start = Date.now();
    const { events } = await open({
      silent: {
        command: process.execPath,
        args: ["-e", "setTimeout(() => {}, 60000)"],
        startTimeoutMs: 1_000,
      },
    });
    expect(Date.now() - start).toBeLessThan(5_000);
    const failure = events.find((e) => e.type === "mcp-server-error");
    expect(failure?.message).toContain(
      "could not start: it did not answer within 1 s (raise mcpServers.silent.startTimeoutMs if it is only slow",
    );
  });
});
