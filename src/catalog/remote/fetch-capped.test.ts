import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fetchCapped } from "./fetch-capped.js";
import { RemoteRootError } from "./remote-root-error.js";
import { transferLimitsFromEnv } from "./transfer-limits.js";

const servers: Server[] = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Sends `chunk` every `ms` and never ends the body. */
function trickle(res: ServerResponse, chunk: Buffer, ms: number): void {
  res.writeHead(200, { "content-type": "application/gzip" });
  res.flushHeaders();
  timers.push(setInterval(() => res.write(chunk), ms));
}

async function failure(url: string, options: Parameters<typeof fetchCapped>[1]): Promise<string> {
  const error = await fetchCapped(url, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RemoteRootError);
  return (error as RemoteRootError).message;
}

describe("fetchCapped", () => {
  it("stops a download that keeps going past the overall deadline, however fast it trickles", async () => {
    const base = await serve((_req, res) => trickle(res, Buffer.alloc(2048, 1), 50));
    const started = Date.now();
    const message = await failure(`${base}/endless.tgz`, {
      transfer: { deadlineMs: 700, lowSpeedBytesPerSecond: 100, lowSpeedMs: 300 },
    });
    expect(message).toBe(
      `Cannot fetch ${base}/endless.tgz: it took longer than the 0.7 s deadline (SKILLRT_REMOTE_TIMEOUT).`,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops a download slower than the minimum rate, and a server that never answers", async () => {
    const slow = await serve((_req, res) => trickle(res, Buffer.from([1]), 100));
    const transfer = { deadlineMs: 20_000, lowSpeedBytesPerSecond: 1000, lowSpeedMs: 400 };
    const started = Date.now();
    expect(await failure(`${slow}/slow.tgz`, { transfer })).toBe(
      `Cannot fetch ${slow}/slow.tgz: the transfer was slower than 1000 bytes/s for 0.4 s (SKILLRT_REMOTE_LOW_SPEED_LIMIT, SKILLRT_REMOTE_LOW_SPEED_TIME).`,
    );
    const mute = await serve(() => {});
    expect(await failure(`${mute}/mute.tgz`, { transfer })).toMatch(/slower than 1000 bytes\/s for 0\.4 s/);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("reads the limits from the environment", () => {
    expect(
      transferLimitsFromEnv({
        SKILLRT_REMOTE_TIMEOUT: "1.5",
        SKILLRT_REMOTE_LOW_SPEED_LIMIT: "0",
        SKILLRT_REMOTE_LOW_SPEED_TIME: "x",
      }),
    ).toEqual({ deadlineMs: 1500, lowSpeedBytesPerSecond: 0, lowSpeedMs: 30_000 });
  });

  it("follows a few redirects, sends credentials to their own origin only, and refuses more than 5", async () => {
    const seen: Array<[string, string | undefined]> = [];
    const other = await serve((req, res) => {
      seen.push([`other${req.url}`, req.headers.authorization]);
      res.writeHead(200).end("payload");
    });
    const base = await serve((req, res) => {
      seen.push([req.url ?? "", req.headers.authorization]);
      const hop = /^\/hop(\d+)$/.exec(req.url ?? "");
      if (req.url === "/start") res.writeHead(302, { location: "/hop1" }).end();
      else if (req.url === "/hop1") res.writeHead(307, { location: `${other}/final` }).end();
      else if (hop !== null) res.writeHead(301, { location: `/hop${Number(hop[1]) + 1}` }).end();
      else res.writeHead(404).end();
    });
    const withUser = base.replace("http://", "http://me:tok3n@");
    expect((await fetchCapped(`${withUser}/start`)).toString()).toBe("payload");
    const auth = `Basic ${Buffer.from("me:tok3n").toString("base64")}`;
    expect(seen).toEqual([
      ["/start", auth],
      ["/hop1", auth],
      ["other/final", undefined],
    ]);
    expect(await failure(`${base}/hop2`, {})).toBe(
      `Cannot fetch ${base}/hop2: it redirects more than 5 times.`,
    );
  });

  it("refuses a redirect to a non-http scheme", async () => {
    const base = await serve((_req, res) => res.writeHead(302, { location: "file:///etc/passwd" }).end());
    expect(await failure(`${base}/x.tgz`, {})).toBe(
      `Cannot fetch ${base}/x.tgz: it redirects to a file: URL; only http(s) is followed.`,
    );
  });
});
