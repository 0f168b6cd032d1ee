/**
 * A company network in miniature, for tests of servers launched through `npx -y`: an npm registry mirror
 * on loopback that speaks HTTPS with a certificate signed by a throwaway CA (made with the `openssl`
 * CLI in a temp folder), forwarding every request to the public registry. npm reaches it only when
 * `npm_config_registry` points at it and Node trusts the CA through `NODE_EXTRA_CA_CERTS` — as on a
 * machine whose registry sits behind a company certificate.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The CA file a client must trust, and the mirror's key pair for `localhost` / `127.0.0.1`. */
export interface TestCertificates {
  caFile: string;
  key: string;
  cert: string;
}

/** Makes a CA and a `localhost` server certificate it signs, in `dir` (valid two days). */
export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  const at = (name: string): string => path.join(dir, name);
  const subject = (cn: string): string[] => ["-subj", `/CN=${cn}`];
  await run("openssl", [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"],
    ...["-keyout", at("ca.key"), "-out", at("ca.pem"), ...subject("skillrt test CA")],
    ...["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
  ]);
  await run("openssl", [
    ...["req", "-newkey", "rsa:2048", "-nodes", "-keyout", at("leaf.key"), "-out", at("leaf.csr")],
    ...subject("localhost"),
  ]);
  await writeFile(
    at("leaf.ext"),
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  await run("openssl", [
    ...["x509", "-req", "-in", at("leaf.csr"), "-CA", at("ca.pem"), "-CAkey", at("ca.key")],
    ...["-CAcreateserial", "-days", "2", "-extfile", at("leaf.ext"), "-out", at("leaf.pem")],
  ]);
  return {
    caFile: at("ca.pem"),
    key: await readFile(at("leaf.key"), "utf8"),
    cert: await readFile(at("leaf.pem"), "utf8"),
  };
}

/** A running mirror: its URL (for `npm_config_registry`), the requests it served, and how to stop it. */
export interface RegistryMirror {
  url: string;
  /** `METHOD path status` of every request, in order. */
  log: string[];
  close(): Promise<void>;
}

/** Starts the HTTPS mirror of `upstream` (default the public npm registry) on a free loopback port. */
export async function startRegistryMirror(
  certificates: TestCertificates,
  upstream = "https://registry.npmjs.org",
): Promise<RegistryMirror> {
  const log: string[] = [];
  const server = https.createServer({ key: certificates.key, cert: certificates.cert }, async (req, res) => {
    const url = req.url ?? "/";
    try {
      const reply = await fetch(upstream + url, {
        method: req.method === "GET" || req.method === "HEAD" ? req.method : "GET",
        headers: { accept: req.headers.accept ?? "*/*" },
      });
      const body = Buffer.from(await reply.arrayBuffer());
      log.push(`${req.method} ${url} ${reply.status}`);
      res.writeHead(reply.status, {
        "content-type": reply.headers.get("content-type") ?? "application/octet-stream",
        "content-length": body.length,
      });
      res.end(body);
    } catch (error) {
      log.push(`${req.method} ${url} upstream failed: ${(error as Error).message}`);
      res.writeHead(502);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
