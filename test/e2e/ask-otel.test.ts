/**
 * `skillrt ask --otel`: the built CLI exports the turn's spans over OTLP/HTTP to a collector on loopback
 * (a receiver that decodes the OTLP JSON it is sent); without the flag nothing is sent.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "./support/loopback-provider.js";
import { assertBuilt, runCli } from "./support/run-cli.js";

const examples = path.resolve(import.meta.dirname, "../../examples/skills");
const csv = "name,age\nann,31\nbob,27\n";

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: OtlpValue }>;
}
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  service: string | undefined;
  spans: OtlpSpan[];
}

/** A collector on loopback: every POST's OTLP JSON body decoded into its spans. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: Array<{
          resource: { attributes: Array<{ key: string; value: OtlpValue }> };
          scopeSpans: Array<{ spans: OtlpSpan[] }>;
        }>;
      };
      for (const resourceSpans of body.resourceSpans) {
        received.push({
          path: req.url ?? "",
          headers: req.headers,
          service: resourceSpans.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue,
          spans: resourceSpans.scopeSpans.flatMap((s) => s.spans),
        });
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function attribute(span: OtlpSpan | undefined, key: string): unknown {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  if (value === undefined) return undefined;
  return value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue));
}

let cwd: string;
let provider: LoopbackProvider | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

beforeAll(() => assertBuilt());
beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-ask-otel-"));
  receiver = await startReceiver();
  provider = await startLoopbackProvider("openai", [
    { toolCalls: [{ name: "skill_load", input: { name: "csv-summary" } }] },
    {
      toolCalls: [
        {
          name: "skill_run",
          input: { name: "csv-summary", command: "node scripts/summarize.mjs -", stdin: csv },
        },
      ],
    },
    { text: "2 rows." },
  ]);
});
afterEach(async () => {
  await provider?.close();
  await receiver?.close();
  await rm(cwd, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  OPENAI_BASE_URL: provider?.baseURL ?? "",
  OPENAI_API_KEY: "sk-loopback",
  AGENT_MODEL: "loopback-model",
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver?.url ?? "",
  OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=k%3D1",
  OTEL_SERVICE_NAME: "ask-under-test",
});

describe("skillrt ask --otel", () => {
  it("exports the turn's span tree over OTLP/HTTP to the collector the standard variables name", async () => {
    const run = await runCli(["ask", "--otel", "--root", examples, "summarise my csv"], {
      cwd,
      env: env(),
      timeoutMs: 60_000,
    });
    expect(run.stderr).not.toContain("could not export");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("2 rows.");
    const received = receiver?.received ?? [];
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.path === "/v1/traces")).toBe(true);
    expect(received[0]?.headers["x-collector-key"]).toBe("k=1");
    expect(received[0]?.service).toBe("ask-under-test");
    const spans = received.flatMap((r) => r.spans);
    const named = (name: string) => spans.find((s) => s.name === name);
    const turn = named("invoke_agent skillrt");
    expect(turn?.parentSpanId ?? "").toBe("");
    expect(attribute(turn, "gen_ai.operation.name")).toBe("invoke_agent");
    const chats = spans.filter((s) => s.name === "chat loopback-model");
    expect(chats).toHaveLength(3);
    expect(chats.every((s) => s.parentSpanId === turn?.spanId)).toBe(true);
    expect(attribute(chats[0], "gen_ai.usage.input_tokens")).toBeTypeOf("number");
    const load = named("skill_load csv-summary");
    expect(load?.parentSpanId).toBe(turn?.spanId);
    expect(attribute(load, "gen_ai.skill.name")).toBe("csv-summary");
    expect(attribute(load, "gen_ai.skill.source.uri")).toBe(`file://${path.join(examples, "csv-summary")}`);
    const runTool = named("execute_tool skill_run");
    const skillRun = named("skill_run csv-summary");
    expect(skillRun?.parentSpanId).toBe(runTool?.spanId);
    expect(attribute(skillRun, "process.exit.code")).toBe(0);
    // One trace.
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  });

  it("a collector that cannot be reached is said once on stderr, and the answer is still given", async () => {
    const closed = await startReceiver();
    await closed.close();
    const run = await runCli(["ask", "--otel", "--root", examples, "summarise my csv"], {
      cwd,
      env: { ...env(), OTEL_EXPORTER_OTLP_ENDPOINT: closed.url },
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("2 rows.");
    expect(run.stderr.match(/could not export spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/g)).toHaveLength(
      1,
    );
    expect(run.stderr).not.toContain("k=1");
  });

  it("without --otel nothing is exported, even with the endpoint set", async () => {
    const run = await runCli(["ask", "--root", examples, "summarise my csv"], {
      cwd,
      env: env(),
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    expect(receiver?.received).toEqual([]);
  });
});
