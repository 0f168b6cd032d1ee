/**
 * Hostile store URLs: passwords holding `/`, `@`, `%`, `:`, `#`, `?`, spaces or non-ASCII, an empty user,
 * secrets in the query, and schemes skillrt does not speak. Through every path that shows a store URL —
 * the redaction itself, `openSessionStore` and a first read against a Postgres port nobody listens on,
 * the inspector's opener, and the real CLI's `ask` and `inspect` — no output holds the password.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openInspectStore } from "../../src/inspect/open-inspect-store.js";
import { openSessionStore } from "../../src/store/open-session-store.js";
import { redactStoreUrl } from "../../src/store/redact-store-url.js";
import { type LoopbackProvider, startLoopbackProvider } from "../e2e/support/loopback-provider.js";
import { assertBuilt, type CliRun, runCli } from "../e2e/support/run-cli.js";

/** Twenty URLs (PORT: a closed local port) and the secrets none of the outputs may hold. */
const HOSTILE: Array<{ url: string; secrets: string[] }> = [
  { url: "postgres://app:pa/ss/word@127.0.0.1:PORT/app", secrets: ["pa/ss/word"] },
  { url: "postgres://app:p@ss@word@127.0.0.1:PORT/app", secrets: ["p@ss@word", "ss@word"] },
  { url: "postgres://app:p%40ss%2Fw0rd@127.0.0.1:PORT/app", secrets: ["p%40ss%2Fw0rd", "p@ss/w0rd"] },
  { url: "postgres://app:pa:ss:wo:rd@127.0.0.1:PORT/app", secrets: ["pa:ss:wo:rd", "ss:wo:rd"] },
  { url: "postgres://app:pässwörd-ü-密码@127.0.0.1:PORT/app", secrets: ["pässwörd-ü-密码", "密码"] },
  { url: "postgres://:emptyuser-secret@127.0.0.1:PORT/app", secrets: ["emptyuser-secret"] },
  { url: "postgresql://app:s3cr3t/with@both@127.0.0.1:PORT/app", secrets: ["s3cr3t/with@both", "with@both"] },
  { url: "postgres://app:%E0%A4%Abadpct@127.0.0.1:PORT/app", secrets: ["%E0%A4%Abadpct", "badpct"] },
  { url: "postgres://app:hash#secret@127.0.0.1:PORT/app", secrets: ["hash#secret"] },
  { url: "postgres://app:quest?secret@127.0.0.1:PORT/app", secrets: ["quest?secret"] },
  { url: "postgres://app:trailing%@127.0.0.1:PORT/app", secrets: ["trailing%"] },
  { url: "postgres://127.0.0.1:PORT/app?password=query-secret", secrets: ["query-secret"] },
  {
    url: "postgres://app@127.0.0.1:PORT/app?sslpassword=ssl-secret&password=second-secret",
    secrets: ["ssl-secret", "second-secret"],
  },
  { url: "mysql://root:mysql-secret@db.internal/x", secrets: ["mysql-secret"] },
  { url: "mariadb://u:maria/db@secret@db/x", secrets: ["maria/db@secret"] },
  { url: "redis://:redis-secret@cache:6379", secrets: ["redis-secret"] },
  { url: "sqlite://user:sqlite-secret@host/db", secrets: ["sqlite-secret"] },
  { url: "unknown+scheme://u:unknown-secret@h/x", secrets: ["unknown-secret"] },
  { url: "app:noscheme-secret@127.0.0.1:PORT/app", secrets: ["noscheme-secret"] },
  { url: "postgres://app:  spaced secret \\ back@127.0.0.1:PORT/app", secrets: ["spaced secret \\ back"] },
];

let port: number;
let cwd: string;
let provider: LoopbackProvider;
const urls = (): Array<{ url: string; secrets: string[] }> =>
  HOSTILE.map(({ url, secrets }) => ({ url: url.replace("PORT", String(port)), secrets }));

beforeAll(async () => {
  // A port that was free a moment ago: nothing listens there (connection refused at once).
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  cwd = await mkdtemp(path.join(os.tmpdir(), "skillrt-sec-urls-"));
  provider = await startLoopbackProvider("openai", [{ text: "never asked" }]);
});
afterAll(async () => {
  await provider.close();
  await rm(cwd, { recursive: true, force: true });
});

/** Fails naming the URL when `text` holds one of its secrets. */
function expectNoSecret(text: string, url: string, secrets: string[]): void {
  for (const secret of secrets)
    expect(text.includes(secret), `${url} leaked '${secret}' in: ${text}`).toBe(false);
}

describe("hostile store URLs", () => {
  it("has twenty of them", () => expect(HOSTILE).toHaveLength(20));

  it("redactStoreUrl keeps none of the password, and keeps the host", () => {
    for (const { url, secrets } of urls()) {
      const shown = redactStoreUrl(url);
      expectNoSecret(shown, url, secrets);
      expect(shown).toContain("***");
    }
    expect(redactStoreUrl(`postgres://app:p@ss/w@127.0.0.1:${port}/app`)).toBe(
      `postgres://app:***@127.0.0.1:${port}/app`,
    );
    expect(redactStoreUrl("sqlite:./data@v2/s.db")).toBe("sqlite:./data@v2/s.db"); // a path: nothing to hide
  });

  it("openSessionStore and a first read against a closed Postgres port: errors without the password", async () => {
    for (const { url, secrets } of urls()) {
      let message = "";
      try {
        const store = openSessionStore({ url, cwd });
        try {
          await store.list({ limit: 1 });
        } finally {
          await store.close();
        }
      } catch (error) {
        message = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack ?? ""}`;
      }
      expect(message, url).not.toBe("");
      expectNoSecret(message, url, secrets);
    }
    // Nothing was created after the credentials (the sqlite:// URL with an authority is refused).
    expect(existsSync("/user:sqlite-secret@host")).toBe(false);
  }, 60_000);

  it("the inspector's opener: messages without the password", async () => {
    for (const { url, secrets } of urls()) {
      const opened = await openInspectStore({ url, cwd });
      expect(opened.ok, url).toBe(false);
      expectNoSecret(JSON.stringify(opened), url, secrets);
    }
  }, 60_000);

  it("the CLI's ask and inspect: exit 1, one line, no password on stdout or stderr", async () => {
    assertBuilt();
    const env = {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: cwd,
      NO_COLOR: "1",
      SKILLRT_CACHE: "0",
      OPENAI_BASE_URL: provider.baseURL,
      OPENAI_API_KEY: "sk-loopback",
      AGENT_MODEL: "loopback-model",
    };
    // Every URL through `ask --store` and `inspect --store`; every fourth also through `ask --json` with
    // SKILLRT_STORE_URL (the same code path, a different output).
    const runs = urls().flatMap(({ url, secrets }, i) => [
      { url, secrets, args: ["ask", "--store", url, "hi"], extra: {} },
      { url, secrets, args: ["inspect", "--store", url, "--port", "0"], extra: {} },
      ...(i % 4 === 0
        ? [{ url, secrets, args: ["ask", "--json", "hi"], extra: { SKILLRT_STORE_URL: url } }]
        : []),
    ]);
    // Two at a time: the machine is shared.
    for (let i = 0; i < runs.length; i += 2) {
      await Promise.all(
        runs.slice(i, i + 2).map(async ({ url, secrets, args, extra }) => {
          const run = await cli(args, { ...env, ...extra });
          expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(1);
          expect(run.stderr.trim().split("\n").length, run.stderr).toBeLessThanOrEqual(2);
          expectNoSecret(run.stdout + run.stderr, url, secrets);
        }),
      );
    }
    expect(provider.requests).toHaveLength(0);
  }, 240_000);
});

/** The built CLI in the test's directory with exactly `env`, killed after 30 s. */
function cli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runCli(args, { cwd, env, timeoutMs: 30_000 });
}
