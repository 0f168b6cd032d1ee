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
 *
 * Sessions end: a client's `DELETE`, or {@link DEFAULT_SESSION_IDLE_MS} without a request (a request in
 * flight or an open event stream counts as use), closes a session and its server (which deletes its
 * workspace). A full server (or a client at its cap) first closes the session idle longest, if one has been
 * idle {@link DEFAULT_EVICT_IDLE_AFTER_MS}; only when every session is in use does it refuse, with 503 (429
 * for one client's cap) and `Retry-After`, so clients that never send `DELETE` cannot lock others out.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import { bearerChallenge, createHttpGuard } from "../util/http-guard.js";
import { createSessionTable } from "./session-table.js";

export { isLoopbackHost, MIN_MCP_TOKEN_LENGTH } from "../util/http-guard.js";

/** Default ms a session may go without a request before it is closed: 5 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 5 * 60 * 1000;

/**
 * Default least ms a session must be idle before a full server closes it to make room for a new one: a
 * session in use (or used within the last 30 s) is never taken from its client.
 */
export const DEFAULT_EVICT_IDLE_AFTER_MS = 30_000;

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
  /**
   * Most sessions open at once. Past it the session idle longest (at least `evictIdleAfterMs`) is closed to
   * make room; when none is, a new session gets 503 with `Retry-After`. Default 1,000.
   */
  maxSessions?: number;
  /**
   * Most sessions open at once per credential (per token; per remote address with `auth: false`); past it
   * that client's own session idle longest (at least `evictIdleAfterMs`) is closed to make room, else its new
   * session gets 429 with `Retry-After` while others still get theirs. `stateless`: most requests in flight
   * per credential. Default 32.
   */
  maxSessionsPerClient?: number;
  /**
   * A session without a request this long (none in flight, no open event stream) is closed with its server
   * and workspace. Default {@link DEFAULT_SESSION_IDLE_MS} (5 minutes).
   */
  idleSessionMs?: number;
  /**
   * Least ms a session must be idle before a full server may close it for a new one. Default
   * {@link DEFAULT_EVICT_IDLE_AFTER_MS} (30 s), never more than `idleSessionMs`.
   */
  evictIdleAfterMs?: number;
  /** The clock, in ms (tests move it). Default `Date.now`. */
  now?: () => number;
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

/**
 * Starts the server; resolves once it listens. Throws for a non-loopback host without auth, and for a
 * token shorter than {@link MIN_MCP_TOKEN_LENGTH}. Pure: writes no file (the CLI keeps the token file).
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const guard = createHttpGuard({
    host,
    tokens:
      options.auth === false
        ? undefined
        : "tokens" in options.auth
          ? options.auth.tokens
          : [options.auth.token],
    allowedHosts: options.allowedHosts,
  });
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 1000;
  const perClient = options.maxSessionsPerClient ?? 32;
  const idleMs = options.idleSessionMs ?? DEFAULT_SESSION_IDLE_MS;
  const evictAfterMs = Math.min(options.evictIdleAfterMs ?? DEFAULT_EVICT_IDLE_AFTER_MS, idleMs);
  for (const [name, value] of [
    ["maxSessions", maxSessions],
    ["maxSessionsPerClient", perClient],
    ["idleSessionMs", idleMs],
  ] as const)
    if (!Number.isFinite(value) || value <= 0)
      throw new SkillrtError({
        code: "invalid-argument",
        message: `${name} must be a positive number, got ${value}`,
      });
  if (!(evictAfterMs >= 0))
    throw new SkillrtError({
      code: "invalid-argument",
      message: `evictIdleAfterMs must be 0 or more, got ${options.evictIdleAfterMs}`,
    });
  const now = options.now ?? Date.now;
  const report = (error: unknown): void =>
    options.onError?.(error instanceof Error ? error : new Error(String(error)));
  let port = 0;
  const table = createSessionTable({ idleMs, evictAfterMs, now, report });
  /** Sessions whose initialize is being answered: counted against `maxSessions` before they exist. */
  let opening = 0;
  const seconds = (ms: number): string =>
    ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const refused = guard.rebinding(req, port);
    if (refused !== undefined) return reply(res, 403, -32000, `Forbidden: ${refused}`);
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== MCP_HTTP_PATH)
      return reply(res, 404, -32000, `Not found: MCP is served at ${MCP_HTTP_PATH}`);
    const client = guard.credential(req);
    if (client === "missing" || client === "invalid") {
      res.setHeader("WWW-Authenticate", bearerChallenge(client));
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
      const running = table.held(client);
      if (running >= perClient)
        return reply(
          res,
          429,
          -32000,
          `Too many requests in flight for this client: ${running} are running, the limit per ${options.auth === false ? "address" : "credential"} is ${perClient}. Wait for one to finish`,
        );
      const release = table.hold(client);
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
      const session = table.get(sessionId);
      // A session answers only the credential that opened it: another token holding its id gets nothing.
      if (session === undefined || (options.auth !== false && session.client !== client))
        return reply(
          res,
          404,
          -32001,
          "Session not found (it was closed, or expired unused): initialize a new session",
        );
      // In use from now until the response (or event stream) ends: never idle, never evicted meanwhile.
      session.busy++;
      session.lastSeen = now();
      res.once("close", () => {
        session.busy--;
        session.lastSeen = now();
      });
      await session.transport.handleRequest(req, res, body);
      return;
    }
    const initializing = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
    if (method !== "POST" || !initializing)
      return reply(res, 400, -32000, "Bad request: no Mcp-Session-Id; start with an initialize request");
    table.expire();
    // Loops: sessions still being opened count too, so one closed session may not be enough room.
    while (table.held(client) >= perClient) {
      const room = table.evictOldestIdle(client);
      if (!room.evicted) {
        res.setHeader("Retry-After", String(room.retryAfter));
        return reply(
          res,
          429,
          -32000,
          `Too many sessions for this client: ${table.held(client)} are open, the limit per ${options.auth === false ? "address" : "credential"} is ${perClient}, and none has been idle ${seconds(evictAfterMs)} to be closed for a new one. Close one (DELETE ${MCP_HTTP_PATH} with its Mcp-Session-Id), or retry after ${room.retryAfter} s; unused sessions expire after ${seconds(idleMs)}`,
        );
      }
    }
    while (table.size + opening >= maxSessions) {
      const room = table.evictOldestIdle();
      if (!room.evicted) {
        res.setHeader("Retry-After", String(room.retryAfter));
        return reply(
          res,
          503,
          -32000,
          `Too many sessions: all ${maxSessions} are in use and none has been idle ${seconds(evictAfterMs)} to be closed for a new one. Retry after ${room.retryAfter} s; unused sessions expire after ${seconds(idleMs)}`,
        );
      }
    }
    // Counted now, not when the SDK reports the session: concurrent initializes cannot overshoot the cap.
    const release = table.hold(client);
    opening++;
    let added = false;
    try {
      const server = await options.createServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (newId) => {
          // From here the session holds the count, and closing it gives the count back.
          added = true;
          opening--;
          table.add(newId, { transport, server, lastSeen: now(), busy: 0, client }, release);
        },
      });
      transport.onerror = report;
      transport.onclose = () => {
        if (transport.sessionId !== undefined) table.close(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      // An initialize the transport refused opened no session: nothing else will close this server.
      if (transport.sessionId === undefined || table.get(transport.sessionId) === undefined) {
        void transport.close().catch(report);
        void server.close().catch(report);
      }
    } finally {
      if (!added) {
        opening--;
        release();
      }
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
  // A session is closed at most a quarter of the timeout late (and at most 30 s late).
  const sweep = setInterval(table.expire, Math.min(Math.max(idleMs / 4, 100), 30_000));
  sweep.unref();
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${MCP_HTTP_PATH}`,
    sessionCount: () => table.size,
    async close() {
      clearInterval(sweep);
      const closing = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await table.closeAll();
      httpServer.closeAllConnections();
      await closing;
    },
  };
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
