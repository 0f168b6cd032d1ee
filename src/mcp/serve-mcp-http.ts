/**
 * MCP over Streamable HTTP on `node:http`, so one skills server feeds many agents: the SDK's
 * `StreamableHTTPServerTransport` at `/mcp`, one MCP server per session (or, `stateless`, per request,
 * so instances behind a load balancer need no shared state).
 *
 * Guarded as a local server must be: every request carries a bearer token (compared in constant time;
 * 401 with a `WWW-Authenticate: Bearer` challenge otherwise, as RFC 6750 and the MCP authorization spec
 * say) unless the caller explicitly passes `auth: false`, and then only on loopback — another user of the
 * same machine reaches loopback too. Every request's `Host` (and `Origin`, when sent) must name this
 * server, which defeats DNS rebinding (a page on evil.example resolving to 127.0.0.1 sends
 * `Host: evil.example`). Sessions are capped per credential (per token, or per remote address without
 * auth), so one client cannot take them all. Refusals are JSON-RPC errors with an HTTP 4xx status.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { SkillrtError } from "../errors/skillrt-error.js";

/** The path the server answers at. */
export const MCP_HTTP_PATH = "/mcp";

/**
 * Who may use the server: `{ token }` (or several, `{ tokens }`: each one a credential of its own, with
 * its own session cap) that every request must send as `Authorization: Bearer <token>`, or `false` for
 * no credential at all (loopback only; any local user can then use the server).
 */
export type McpHttpAuth = { token: string } | { tokens: readonly string[] } | false;

/** Options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
  /** Makes the MCP server of one session (or, `stateless`, of one request). */
  createServer: () => Promise<McpServer>;
  /** The credential every request must carry, or `false` for none (loopback only). Required: no default. */
  auth: McpHttpAuth;
  /** Interface to listen on. Default `127.0.0.1`. A non-loopback host requires `auth`. */
  host?: string;
  /** Port. Default 0 (any free port; the URL says which). */
  port?: number;
  /** A fresh server per request and no `Mcp-Session-Id`: instances share nothing. Default false. */
  stateless?: boolean;
  /** More `Host` names accepted (e.g. the name a reverse proxy forwards), besides the listening host. */
  allowedHosts?: string[];
  /** Largest request body. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Most sessions open at once; past it a new session gets 503. Default 1,000. */
  maxSessions?: number;
  /**
   * Most sessions open at once per credential (per token; per remote address with `auth: false`); past it
   * that client's new session gets 429 while others still get theirs. `stateless`: most requests in flight
   * per credential. Default 32.
   */
  maxSessionsPerClient?: number;
  /** A session unused this long is closed. Default 30 minutes. */
  idleSessionMs?: number;
  /** Receives transport and server errors (the CLI logs them). */
  onError?: (error: Error) => void;
}

/** A listening MCP HTTP server. */
export interface McpHttpServer {
  /** `http://host:port/mcp`. */
  url: string;
  /** Sessions open now (0 when stateless). */
  sessionCount(): number;
  /** Stops listening and closes every session (their servers delete their workspaces). */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  /** The credential that opened it (a token's index, or the remote address without auth). */
  client: string;
}

/** Shortest token accepted: a guessable token over loopback is no credential. */
export const MIN_MCP_TOKEN_LENGTH = 32;

/** True for a host name that only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Starts the server; resolves once it listens. Throws for a non-loopback host without auth, and for a
 * token shorter than {@link MIN_MCP_TOKEN_LENGTH}. Pure: writes no file (the CLI keeps the token file).
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(host);
  const tokens =
    options.auth === false ? [] : "tokens" in options.auth ? [...options.auth.tokens] : [options.auth.token];
  if (options.auth !== false && tokens.length === 0)
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        "auth.tokens is empty: give at least one token, or auth: false for no credential (loopback only)",
    });
  if (tokens.some((t) => t.length < MIN_MCP_TOKEN_LENGTH))
    throw new SkillrtError({
      code: "invalid-argument",
      message: `A bearer token must be at least ${MIN_MCP_TOKEN_LENGTH} characters (e.g. 32 random bytes, base64url)`,
    });
  if (!loopback && options.auth === false) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Refusing to serve MCP on ${host} without a bearer token: anyone who reaches it could read the skills and run their scripts. Give a token, or listen on 127.0.0.1.`,
    });
  }
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 1000;
  const perClient = options.maxSessionsPerClient ?? 32;
  const idleMs = options.idleSessionMs ?? 30 * 60 * 1000;
  const tokenHashes = tokens.map(sha256);
  const report = (error: unknown): void =>
    options.onError?.(error instanceof Error ? error : new Error(String(error)));
  const sessions = new Map<string, Session>();
  const wildcard = host === "0.0.0.0" || host === "::";
  const allowed = new Set(
    [
      ...(loopback ? ["localhost", "127.0.0.1", "::1"] : wildcard ? [] : [host]),
      ...(options.allowedHosts ?? []),
    ].map((h) => h.replace(/^\[|\]$/g, "").toLowerCase()),
  );
  let port = 0;

  /** Why `Host`/`Origin` do not name this server, or undefined when they do. */
  const rebinding = (req: http.IncomingMessage): string | undefined => {
    const hostHeader = req.headers.host;
    if (hostHeader === undefined) return "a Host header is required";
    const named = hostOf(hostHeader);
    if (named === undefined) return "the Host header is not a host name";
    if (!wildcard || allowed.size > 0) {
      if (!allowed.has(named.name)) return `Host '${hostHeader}' is not this server`;
      if (named.port !== undefined && named.port !== port)
        return `Host '${hostHeader}' is not this server's port`;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== "null") {
      let originHost: string;
      try {
        originHost = new URL(origin).hostname.replace(/^\[|\]$/g, "").toLowerCase();
      } catch {
        return "the Origin header is not a URL";
      }
      if (!allowed.has(originHost) && originHost !== named.name) return `Origin '${origin}' is not allowed`;
    }
    return undefined;
  };

  /**
   * The credential of `req` (`token:<index>`; `address:<ip>` without auth), or why it has none: `missing`
   * (no bearer token sent) or `invalid`. Every token is compared, in constant time, whatever matches.
   */
  const credential = (req: http.IncomingMessage): string | "missing" | "invalid" => {
    if (options.auth === false) return `address:${req.socket.remoteAddress ?? "?"}`;
    const header = req.headers.authorization;
    const match = header === undefined ? null : /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
    if (match === null) return "missing";
    const sent = sha256(match[1]!);
    let found = -1;
    for (const [index, hash] of tokenHashes.entries()) if (timingSafeEqual(sent, hash)) found = index;
    return found === -1 ? "invalid" : `token:${found}`;
  };
  const perClientCount = new Map<string, number>();

  const closeSession = (id: string): void => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    const left = (perClientCount.get(session.client) ?? 1) - 1;
    if (left <= 0) perClientCount.delete(session.client);
    else perClientCount.set(session.client, left);
    void session.transport.close().catch(report);
    void session.server.close().catch(report);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const refused = rebinding(req);
    if (refused !== undefined) return reply(res, 403, -32000, `Forbidden: ${refused}`);
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== MCP_HTTP_PATH)
      return reply(res, 404, -32000, `Not found: MCP is served at ${MCP_HTTP_PATH}`);
    const client = credential(req);
    if (client === "missing" || client === "invalid") {
      // RFC 6750 section 3: no error code when no credential was sent, invalid_token for a wrong one.
      res.setHeader(
        "WWW-Authenticate",
        client === "missing"
          ? 'Bearer realm="skillrt"'
          : 'Bearer realm="skillrt", error="invalid_token", error_description="the bearer token is not valid"',
      );
      return reply(
        res,
        401,
        -32000,
        client === "missing"
          ? "Unauthorized: send 'Authorization: Bearer <token>' (skillrt mcp --http prints where its token file is)"
          : "Unauthorized: the bearer token is not valid",
      );
    }
    const method = req.method ?? "GET";
    let body: unknown;
    if (method === "POST") {
      const read = await readBody(req, maxBody);
      if (read === "too-large") return reply(res, 413, -32600, `Request body over ${maxBody} bytes`);
      try {
        body = JSON.parse(read.toString("utf8"));
      } catch {
        return reply(res, 400, -32700, "Parse error: the body is not JSON");
      }
    }

    if (options.stateless === true) {
      if (method !== "POST") {
        res.setHeader("Allow", "POST");
        return reply(res, 405, -32000, "Method not allowed: this server is stateless (POST only)");
      }
      // Each request here is a server of its own until it is answered: the same cap, on requests in flight.
      const running = perClientCount.get(client) ?? 0;
      if (running >= perClient)
        return reply(
          res,
          429,
          -32000,
          `Too many requests in flight for this client: ${running} are running, the limit per ${options.auth === false ? "address" : "credential"} is ${perClient}. Wait for one to finish`,
        );
      perClientCount.set(client, running + 1);
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        const left = (perClientCount.get(client) ?? 1) - 1;
        if (left <= 0) perClientCount.delete(client);
        else perClientCount.set(client, left);
      };
      res.on("close", release);
      let server: McpServer;
      try {
        server = await options.createServer();
      } catch (error) {
        release();
        throw error;
      }
      const transport = new StreamableHTTPServerTransport({});
      transport.onerror = report;
      res.on("close", () => {
        void transport.close().catch(report);
        void server.close().catch(report);
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }

    const id = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(id) ? id[0] : id;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // A session answers only the credential that opened it: another token holding its id gets nothing.
      if (session === undefined || (options.auth !== false && session.client !== client))
        return reply(res, 404, -32001, "Session not found: initialize a new session");
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    const initializing = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
    if (method !== "POST" || !initializing)
      return reply(res, 400, -32000, "Bad request: no Mcp-Session-Id; start with an initialize request");
    if (sessions.size >= maxSessions)
      return reply(res, 503, -32000, `Too many sessions (${maxSessions}); try later`);
    const opened = perClientCount.get(client) ?? 0;
    if (opened >= perClient)
      return reply(
        res,
        429,
        -32000,
        `Too many sessions for this client: ${opened} are open, the limit per ${options.auth === false ? "address" : "credential"} is ${perClient}. Close one (DELETE ${MCP_HTTP_PATH} with its Mcp-Session-Id) or wait until an unused one expires (after ${Math.round(idleMs / 60_000)} min)`,
      );
    // Counted now, not when the SDK reports the session: concurrent initializes cannot overshoot the cap.
    perClientCount.set(client, opened + 1);
    let counted = true;
    const uncount = (): void => {
      if (!counted) return;
      counted = false;
      const left = (perClientCount.get(client) ?? 1) - 1;
      if (left <= 0) perClientCount.delete(client);
      else perClientCount.set(client, left);
    };
    try {
      const server = await options.createServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (newId) => {
          // From here the session holds the count, and closeSession gives it back.
          counted = false;
          sessions.set(newId, { transport, server, lastSeen: Date.now(), client });
        },
      });
      transport.onerror = report;
      transport.onclose = () => {
        if (transport.sessionId !== undefined) closeSession(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      // An initialize the transport refused opened no session: nothing else will close this server.
      if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
        void transport.close().catch(report);
        void server.close().catch(report);
      }
    } finally {
      uncount();
    }
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      report(error);
      if (!res.headersSent) reply(res, 500, -32603, "Internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (now - session.lastSeen > idleMs) closeSession(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${MCP_HTTP_PATH}`,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      const closing = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      const open = [...sessions.values()];
      sessions.clear();
      perClientCount.clear();
      await Promise.all(
        open.map(async (s) => {
          await s.transport.close().catch(report);
          await s.server.close().catch(report);
        }),
      );
      httpServer.closeAllConnections();
      await closing;
    },
  };
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** `name[:port]` of a Host header (IPv6 in brackets), lower-cased, brackets removed. */
function hostOf(header: string): { name: string; port?: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(header.trim());
  if (match === null) return undefined;
  const name = match[1]!.replace(/^\[|\]$/g, "").toLowerCase();
  return match[2] === undefined ? { name } : { name, port: Number(match[2]) };
}

async function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | "too-large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return "too-large";
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function reply(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
