/**
 * A company network in miniature, for tests of servers launched through `npx -y` behind a proxy: an HTTP
 * proxy on loopback whose CONNECT handler terminates TLS itself, with a certificate for the requested host
 * signed by a throwaway CA (made with the `openssl` CLI at test time), and forwards each request to the
 * real host over HTTPS. A client reaches the registry only when `HTTPS_PROXY` points at the proxy and
 * Node trusts the CA through `NODE_EXTRA_CA_CERTS` — as on a machine behind a TLS-inspecting proxy.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import tls from "node:tls";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A CA in a folder: `ca.pem` (what a client must trust) and `ca.key` (what signs host certificates). */
export interface TestCa {
  dir: string;
  caFile: string;
}

/** Makes a throwaway CA in `dir` (valid two days). */
export async function makeTestCa(dir: string): Promise<TestCa> {
  await run("openssl", [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"],
    ...["-keyout", path.join(dir, "ca.key"), "-out", path.join(dir, "ca.pem")],
    ...["-subj", "/CN=skillrt test inspection CA"],
    ...["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
  ]);
  return { dir, caFile: path.join(dir, "ca.pem") };
}

/** A key and a certificate for `host`, signed by `ca`. */
async function hostCertificate(ca: TestCa, host: string): Promise<{ key: string; cert: string }> {
  if (!/^[a-z0-9.-]+$/i.test(host)) throw new Error(`refusing to make a certificate for '${host}'`);
  const at = (ext: string): string => path.join(ca.dir, `${host}.${ext}`);
  await run("openssl", [
    ...["req", "-newkey", "rsa:2048", "-nodes", "-keyout", at("key"), "-out", at("csr")],
    ...["-subj", `/CN=${host}`],
  ]);
  await writeFile(
    at("ext"),
    `subjectAltName=DNS:${host}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  await run("openssl", [
    ...["x509", "-req", "-in", at("csr"), "-CA", ca.caFile, "-CAkey", path.join(ca.dir, "ca.key")],
    ...["-CAcreateserial", "-days", "2", "-extfile", at("ext"), "-out", at("pem")],
  ]);
  return { key: await readFile(at("key"), "utf8"), cert: await readFile(at("pem"), "utf8") };
}

/** A running proxy: its URL (for `HTTPS_PROXY`), what it saw, and how to stop it. */
export interface InterceptingProxy {
  url: string;
  /** `CONNECT host:port`, then `METHOD https://host/path status` of every request forwarded, in order. */
  log: string[];
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port; only port 443 is tunnelled. */
export async function startInterceptingProxy(ca: TestCa): Promise<InterceptingProxy> {
  const log: string[] = [];
  const certificates = new Map<string, Promise<{ key: string; cert: string }>>();
  const sockets = new Set<Socket>();

  // Requests that arrive inside a terminated tunnel: the host is the one the tunnel was opened to.
  const inner = http.createServer(async (req, res) => {
    const host = (req.socket as tls.TLSSocket & { tunnelHost?: string }).tunnelHost ?? "";
    const target = `https://${host}${req.url ?? "/"}`;
    try {
      const reply = await fetch(target, {
        method: req.method === "GET" || req.method === "HEAD" ? req.method : "GET",
        headers: { accept: req.headers.accept ?? "*/*" },
      });
      const body = Buffer.from(await reply.arrayBuffer());
      log.push(`${req.method} ${target} ${reply.status}`);
      res.writeHead(reply.status, {
        "content-type": reply.headers.get("content-type") ?? "application/octet-stream",
        "content-length": body.length,
      });
      res.end(body);
    } catch (error) {
      log.push(`${req.method} ${target} upstream failed: ${(error as Error).message}`);
      res.writeHead(502);
      res.end();
    }
  });

  const proxy = http.createServer((_req, res) => {
    res.writeHead(405);
    res.end("this proxy only tunnels (CONNECT)\n");
  });
  proxy.on("connect", async (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    const [host = "", port = ""] = (req.url ?? "").split(":");
    log.push(`CONNECT ${host}:${port}`);
    if (port !== "443") {
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    let pair: { key: string; cert: string };
    try {
      if (!certificates.has(host)) certificates.set(host, hostCertificate(ca, host));
      pair = await (certificates.get(host) as Promise<{ key: string; cert: string }>);
    } catch {
      client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      return;
    }
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) client.unshift(head);
    const secure = new tls.TLSSocket(client, { isServer: true, key: pair.key, cert: pair.cert });
    // A client that does not trust the CA aborts the handshake: logged, not thrown.
    secure.on("error", (error) =>
      log.push(`TLS ${host} ${(error as NodeJS.ErrnoException).code ?? error.message}`),
    );
    Object.assign(secure, { tunnelHost: host });
    inner.emit("connection", secure);
  });

  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        inner.closeAllConnections();
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
