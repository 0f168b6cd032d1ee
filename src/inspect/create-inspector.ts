/**
 * The inspector's HTTP server (`node:http`, no framework): the static UI, a JSON API over the session
 * store and the catalog, and a server-sent-events stream that tells open pages when a session changed
 * (the store is polled) or when an attached agent emitted an event (in-process).
 *
 * Security: loopback by default; the `Host` header must name the server (no DNS rebinding); only GET;
 * every response carries a strict Content-Security-Policy (no inline script, nothing from other origins);
 * values of secret-looking environment variables are removed from every API response.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type EngineEvent, type EngineEventListener, innermostEvent } from "../engine/engine-event.js";
import type { SkillAgent } from "../engine/skill-agent.js";
import { createRedactor, type Redactor } from "../exec/redact.js";
import type { SessionStore } from "../store/session-store.js";
import { type CatalogViewer, firstSkills } from "./build-catalog-view.js";
import { isLoopbackHost } from "./is-loopback-host.js";
import { listSessions, readSession, storeFingerprint } from "./read-sessions.js";
import { readUiAsset } from "./ui-assets.js";

/** Options of {@link createInspector}. */
export interface InspectorOptions {
  store: SessionStore;
  /** The catalog view; without it the Catalog page says no roots were given. */
  catalog?: CatalogViewer;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 7420; 0 picks a free port. */
  port?: number;
  /** How often the store is polled for changes, in ms. Default 300. */
  pollMs?: number;
  /** Values removed from every response (e.g. API keys from the environment). */
  secrets?: Iterable<string>;
  /** Called when polling the store fails (the server keeps running). */
  onWarning?: (message: string) => void;
}

/** A running inspector. */
export interface Inspector {
  /** `http://host:port/`. */
  url: string;
  server: Server;
  /**
   * A listener to pass to an agent's turn (or event subscription): every event is pushed to open pages
   * of session `sessionId` as it happens.
   */
  listener(sessionId: string): EngineEventListener;
  /**
   * Pushes every event of `agent`'s turns (`SkillAgent.subscribe`) to open pages of its current session,
   * as they happen. Returns the function that detaches it.
   */
  attach(agent: Pick<SkillAgent, "subscribe" | "sessionId">): () => void;
  /** Stops polling, ends event streams and closes the server. Idempotent. */
  close(): Promise<void>;
}

/** The started inspector, or why it could not listen (one line). */
export type StartedInspector = { ok: true; inspector: Inspector } | { ok: false; message: string };

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
};

function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host, host.includes(":") ? `[${host}]` : host]);
  if (isLoopbackHost(host)) for (const n of ["localhost", "127.0.0.1", "[::1]"]) names.add(n);
  return new Set([...names].map((n) => `${n}:${port}`.toLowerCase()));
}

async function listen(server: Server, host: string, port: number): Promise<AddressInfo | string> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.removeListener("listening", onListening);
      if (error.code === "EADDRINUSE")
        resolve(`port ${port} on ${host} is in use; pick another with --port N (--port 0 picks a free one)`);
      else if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN")
        resolve(`cannot listen on ${host}: no such address on this machine`);
      else if (error.code === "EACCES")
        resolve(`not allowed to listen on ${host}:${port} (ports below 1024 need privileges)`);
      else resolve(`cannot listen on ${host}:${port}: ${error.message}`);
    };
    const onListening = (): void => {
      server.removeListener("error", onError);
      resolve(server.address() as AddressInfo);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/** Starts the inspector; `ok: false` when it cannot listen (port in use, no such address). */
export async function createInspector(options: InspectorOptions): Promise<StartedInspector> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(host);
  const store = options.store;
  const redactor: Redactor = createRedactor(options.secrets ?? []);
  const clients = new Set<ServerResponse>();
  let hosts = new Set<string>();

  const sendJson = (res: ServerResponse, status: number, value: unknown): void => {
    const body = redactor.redact(JSON.stringify(value));
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
    });
    res.end(body);
  };
  const broadcast = (event: string, data: unknown): void => {
    const frame = `event: ${event}\ndata: ${redactor.redact(JSON.stringify(data))}\n\n`;
    for (const client of clients) client.write(frame);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // DNS rebinding: a page on another site must not reach a loopback server through its own name. A server
    // deliberately exposed (--host) is reached under whatever name the network gives it.
    if (loopback && !hosts.has((req.headers.host ?? "").toLowerCase())) {
      res.writeHead(421, { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" });
      res.end("Unknown Host header: open the inspector through the URL it printed.\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { ...SECURITY_HEADERS, allow: "GET, HEAD" });
      res.end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://inspector.invalid");
    const route = url.pathname;
    if (route === "/api/sessions") return sendJson(res, 200, await listSessions(store));
    if (route.startsWith("/api/sessions/")) {
      const id = decodeURIComponent(route.slice("/api/sessions/".length));
      const detail = await readSession(store, id);
      return detail === undefined
        ? sendJson(res, 404, { error: `no session '${id}'` })
        : sendJson(res, 200, detail);
    }
    if (route === "/api/catalog") {
      if (options.catalog === undefined) return sendJson(res, 200, { skills: undefined });
      // ?first=N: only the first N skills (the counts still cover all), for the page's first render.
      const first = Number.parseInt(url.searchParams.get("first") ?? "", 10);
      const view = await options.catalog.view();
      return sendJson(res, 200, first >= 0 ? firstSkills(view, first) : view);
    }
    if (route === "/api/search") {
      const query = url.searchParams.get("q") ?? "";
      return sendJson(res, 200, (await options.catalog?.search(query, 50)) ?? []);
    }
    if (route === "/api/events") {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write("retry: 1000\n\n");
      clients.add(res);
      req.on("close", () => clients.delete(res));
      return;
    }
    const asset = await readUiAsset(route);
    if (asset === undefined) {
      res.writeHead(404, { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" });
      res.end("Not found\n");
      return;
    }
    res.writeHead(200, { ...SECURITY_HEADERS, "content-type": asset.type, "cache-control": "no-cache" });
    res.end(req.method === "HEAD" ? undefined : asset.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.end();
    });
  });
  const address = await listen(server, host, options.port ?? 7420);
  if (typeof address === "string") return { ok: false, message: address };
  hosts = allowedHosts(host, address.port);
  const shown = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shown}:${address.port}/`;

  // Live view: a session changed when its conversation or turn log got a new version.
  let last = await storeFingerprint(store).catch(() => new Map<string, string>());
  let polling = false;
  let warned = false;
  const timer = setInterval(() => {
    if (polling || clients.size === 0) return;
    polling = true;
    storeFingerprint(store)
      .then((now) => {
        warned = false;
        for (const [id, version] of now) if (last.get(id) !== version) broadcast("session", { id, version });
        last = now;
      })
      .catch((error: unknown) => {
        if (!warned)
          options.onWarning?.(
            `cannot poll the store: ${error instanceof Error ? error.message : String(error)}`,
          );
        warned = true;
      })
      .finally(() => {
        polling = false;
      });
  }, options.pollMs ?? 300);
  timer.unref();
  // Keeps proxies and the browser from timing out an idle stream.
  const keepAlive = setInterval(() => {
    for (const client of clients) client.write(": keep-alive\n\n");
  }, 15_000);
  keepAlive.unref();

  const push = (sessionId: string, event: EngineEvent): void => {
    // A turn's start and end show in the page as its saved turn (the store is polled).
    const type = innermostEvent(event).type;
    if (event.type !== "text-delta" && type !== "turn-start" && type !== "turn-end")
      broadcast("agent", { id: sessionId, event });
  };
  let closing: Promise<void> | undefined;
  const inspector: Inspector = {
    url,
    server,
    listener: (sessionId) => (event: EngineEvent) => push(sessionId, event),
    attach: (agent) => agent.subscribe((event) => push(agent.sessionId, event)),
    close() {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        clearInterval(keepAlive);
        for (const client of clients) client.end();
        clients.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
  return { ok: true, inspector };
}
