/**
 * A hostile archive or git server, through the built CLI (`skillrt list --root <url>`), as issue 35 found
 * them: a negative tar size that wrote four 100 MiB files, 200,000 files from a small archive, a server
 * trickling one byte at a time, an https download redirected to plain http, and passwords with `/` or `@`
 * in a root's URL. Each is refused (or bounded) with a message that names the root and leaks nothing.
 */
import { execFileSync } from "node:child_process";
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeTarGz, tarHeader } from "../../src/catalog/remote/__fixtures__/make-archives.js";
import { assertBuilt, runCli } from "../e2e/support/run-cli.js";
import { tempDir } from "./support.js";

let dir: string;
let env: Record<string, string>;
const servers: Array<{ close: (cb: () => void) => void; closeAllConnections: () => void }> = [];
const timers: NodeJS.Timeout[] = [];
let hits: string[];

beforeAll(() => assertBuilt());
beforeEach(async () => {
  dir = await tempDir("skillrt-hostile-remote-");
  env = { SKILLRT_CACHE_DIR: path.join(dir, "cache") };
  hits = [];
});
afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await rm(dir, { recursive: true, force: true });
});

async function serve(files: Map<string, Buffer>, trickle?: string): Promise<string> {
  const server: Server = createServer((req, res: ServerResponse) => {
    hits.push(req.url ?? "");
    if (req.url === trickle) {
      res.writeHead(200, { "content-type": "application/gzip" });
      res.flushHeaders();
      timers.push(setInterval(() => res.write(Buffer.from([0x1f])), 500));
      return;
    }
    const body = files.get(req.url ?? "");
    if (body === undefined) res.writeHead(404, "Not Found").end();
    else res.writeHead(200, { "content-length": body.length }).end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Listed {
  skills: Array<{ name: string }>;
  diagnostics: Array<{ severity: string; message: string; path: string }>;
}

/** Bytes of every file under `root`. */
async function bytesUnder(root: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  return total;
}

describe("hostile remote roots through skillrt list", () => {
  it("refuses a .tgz with a negative tar size and one with 20,000 files, writing (next to) nothing", async () => {
    // A file whose size is -512 in octal: the old check passed it and the old writer fell out of step.
    const negative = tarHeader({ name: "neg/SKILL.md" }, 0);
    negative.write("-0000001000\0", 124, "latin1");
    negative.write("        ", 148, "latin1");
    let sum = 0;
    for (const byte of negative) sum += byte;
    negative.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
    const huge = Array.from({ length: 4 }, (_, i) => tarHeader({ name: `neg/p${i}.bin` }, 100 * 1024 * 1024));
    const negativeTgz = gzipSync(Buffer.concat([negative, ...huge, Buffer.alloc(1024)]));
    const many = makeTarGz(Array.from({ length: 20_000 }, (_, i) => ({ name: `many/f${i}` })));
    expect(many.length).toBeLessThan(1024 * 1024);
    const base = await serve(
      new Map([
        ["/negative.tgz", negativeTgz],
        ["/many.tgz", many],
      ]),
    );
    const run = await runCli(
      ["list", "--root", `${base}/negative.tgz`, "--root", `${base}/many.tgz`, "--json"],
      { cwd: dir, env, timeoutMs: 60_000 },
    );
    const listed = JSON.parse(run.stdout) as Listed;
    expect(listed.diagnostics.map((d) => d.message)).toEqual([
      `${base}/negative.tgz: a header whose size is not an octal number.`,
      `${base}/many.tgz: more than 10000 files and folders (the limit of one remote root, reached at 'many/f10000'); the archive was not extracted. Split the root into smaller ones.`,
    ]);
    expect(await bytesUnder(path.join(dir, "cache", "remote"))).toBe(0);
    expect(await readdir(path.join(dir, "cache", "remote", "tmp"))).toEqual([]);
  });

  it("ends a download that trickles one byte at a time at the deadline the environment sets", async () => {
    const base = await serve(new Map(), "/slow.tgz");
    const started = Date.now();
    const run = await runCli(["list", "--root", `${base}/slow.tgz`, "--json"], {
      cwd: dir,
      env: { ...env, SKILLRT_REMOTE_TIMEOUT: "1.5" },
      timeoutMs: 30_000,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as Listed).diagnostics[0]?.message).toBe(
      `Cannot fetch ${base}/slow.tgz: it took longer than the 1.5 s deadline (SKILLRT_REMOTE_TIMEOUT).`,
    );
    const slow = await runCli(["list", "--root", `${base}/slow.tgz`], {
      cwd: dir,
      env: { ...env, SKILLRT_REMOTE_LOW_SPEED_TIME: "1", SKILLRT_REMOTE_LOW_SPEED_LIMIT: "100" },
      timeoutMs: 30_000,
    });
    expect(slow.stderr).toContain("the transfer was slower than 100 bytes/s for 1 s");
  });

  it("refuses an https download redirected to plain http, never asking the http server", async () => {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    const plain = await serve(new Map([["/x.tgz", makeTarGz([{ name: "x/SKILL.md", data: "x" }])]]));
    const secure = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
      if (req.url === "/ok") res.writeHead(302, { location: "/x.tgz" }).end();
      else res.writeHead(302, { location: `${plain}/x.tgz` }).end();
    });
    servers.push(secure);
    await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
    const origin = `https://127.0.0.1:${(secure.address() as AddressInfo).port}`;
    const run = await runCli(["list", "--root", `${origin}/x.tgz`, "--json"], {
      cwd: dir,
      env: { ...env, NODE_EXTRA_CA_CERTS: cert },
      timeoutMs: 30_000,
    });
    expect((JSON.parse(run.stdout) as Listed).diagnostics[0]?.message).toBe(
      `Cannot fetch ${origin}/x.tgz: it redirects from https to plain http (${plain}), which would drop the encryption; refused. Use the final https URL, if there is one.`,
    );
    expect(hits).toEqual([]);
  });

  it("never prints a root URL's password with '/', '@' or ':', in text, JSON or the lock", async () => {
    const base = await serve(new Map());
    const slash = base.replace("http://", "http://user:sl/ash-pw@");
    const at = base.replace("http://", "http://user:at@pw:x@");
    for (const args of [["list"], ["list", "--json"], ["search", "anything"]]) {
      const run = await runCli([...args, "--root", `${slash}/a.tgz`, "--root", `${at}/b.tgz`], {
        cwd: dir,
        env,
        timeoutMs: 30_000,
      });
      const shown = run.stdout + run.stderr;
      expect(shown).toContain("***@");
      for (const secret of ["sl/ash", "ash-pw", "at@pw", "pw:x"]) expect(shown).not.toContain(secret);
    }
    await writeFile(path.join(dir, "skillrt.config.json"), JSON.stringify({ roots: [`${at}/b.tgz`] }));
    const lock = await runCli(["lock"], { cwd: dir, env, timeoutMs: 30_000 });
    expect(lock.stdout + lock.stderr).not.toContain("pw:x");
  });
});
