/**
 * The chat service on `node:http`: `POST /api/chat` answers the body `useChat`'s `DefaultChatTransport`
 * posts with the UI message stream of one turn. Stateless between requests: each turn gets an agent of its
 * own for the conversation the chat id names (made by `createAgent`, over a store every replica shares),
 * which takes the store's conversation lock for the turn and is closed after it — any replica serves any
 * turn of any conversation. A client that goes away mid-turn aborts it: the engine saves what completed
 * (whole steps) and nothing of the step cut off.
 *
 * Guarded as `skillrt mcp --http` is (the same guard): a bearer token on every API request unless auth is
 * explicitly off (loopback only), `Host`/`Origin` checked against DNS rebinding, a request body cap, turns
 * per minute per credential and turns at once capped (429/503 with `Retry-After`). `GET /health` and the
 * chat page need no token (they hold no data); `close()` stops taking turns, lets running ones finish
 * for a grace period, then cancels (and so saves) the rest.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ModelMessage } from "ai";
import { CONVERSATION_ID, readChatRequest } from "../engine/read-chat-request.js";
import type { SkillAgent } from "../engine/skill-agent.js";
import { uiTurnResponse } from "../engine/stream-ui-turn.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import { bearerChallenge, createHttpGuard } from "../util/http-guard.js";
import { readChatAsset } from "./chat-assets.js";
import { uiMessagesOfHistory } from "./ui-messages-of-history.js";

/** Options of {@link serveChatHttp}. */
export interface ChatHttpOptions {
  /**
   * The agent of one turn of conversation `conversationId` (resumed from the shared store when saved
   * there). Closed by the server after the turn.
   */
  createAgent: (conversationId: string) => Promise<SkillAgent>;
  /** The saved history of a conversation, or undefined when there is none (`GET /api/chat/:id`). */
  loadHistory: (conversationId: string) => Promise<readonly ModelMessage[] | undefined>;
  /** Bearer tokens accepted (each a credential of its own), or `false` for none (loopback only). */
  auth: { tokens: readonly string[] } | false;
  /** Interface to listen on. Default `127.0.0.1`. A non-loopback host requires `auth`. */
  host?: string;
  /** Port. Default 0 (any free port). */
  port?: number;
  /** More `Host` names accepted (a name a proxy forwards). */
  allowedHosts?: readonly string[];
  /** Largest request body. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Most turns running at once on this server; past it 503 with `Retry-After`. Default 64. */
  maxTurns?: number;
  /** Most turns one credential may start per minute; past it 429 with `Retry-After`. Default 60. */
  turnsPerMinute?: number;
  /** How long `close()` lets running turns finish before cancelling them (they are then saved). Default 10 s. */
  shutdownGraceMs?: number;
  /** Serve the chat page at `/`. Default true. */
  page?: boolean;
  /** Receives errors of turns and of the server (the CLI logs them); never sent to clients. */
  onError?: (error: Error) => void;
}

/** A listening chat server. */
export interface ChatHttpServer {
  /** `http://host:port`. */
  url: string;
  /** Turns running now. */
  running(): number;
  /** Stops taking turns, lets running ones finish (up to the grace period), cancels the rest, then closes. */
  close(): Promise<void>;
}

/** The API path a `DefaultChatTransport` posts to (its default `api`). */
export const CHAT_API_PATH = "/api/chat";

/** Starts the server; resolves once it listens. Throws `invalid-argument` for a bad option. */
export async function serveChatHttp(options: ChatHttpOptions): Promise<ChatHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const guard = createHttpGuard({
    host,
    tokens: options.auth === false ? undefined : options.auth.tokens,
    allowedHosts: options.allowedHosts,
    service: "chat",
  });
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const maxTurns = options.maxTurns ?? 64;
  const perMinute = options.turnsPerMinute ?? 60;
  const graceMs = options.shutdownGraceMs ?? 10_000;
  for (const [name, value] of [
    ["maxBodyBytes", maxBody],
    ["maxTurns", maxTurns],
    ["turnsPerMinute", perMinute],
  ] as const)
    if (!Number.isInteger(value) || value <= 0)
      throw new SkillrtError({
        code: "invalid-argument",
        message: `${name} must be a positive whole number, got ${value}`,
      });
  const report = (error: unknown): void =>
    options.onError?.(error instanceof Error ? error : new Error(String(error)));
  let port = 0;
  let draining = false;
  /** Turns in flight: each one's cancel and its settling. */
  const turns = new Set<{ abort: AbortController; done: Promise<void> }>();
  /** Start times of each credential's turns in the last minute. */
  const started = new Map<string, number[]>();

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const refused = guard.rebinding(req, port);
    if (refused !== undefined) return reply(res, 403, `Forbidden: ${refused}`);
    const url = new URL(req.url ?? "/", "http://x");
    const method = req.method ?? "GET";
    if (url.pathname === "/health" && method === "GET") {
      res.writeHead(draining ? 503 : 200, {
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
      });
      res.end(JSON.stringify({ ok: !draining, turns: turns.size }));
      return;
    }
    if (method === "GET" && options.page !== false) {
      const asset = await readChatAsset(url.pathname);
      if (asset !== undefined) {
        res.writeHead(200, {
          "Content-Type": asset.type,
          "Cache-Control": "no-cache",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy":
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'",
          "Referrer-Policy": "no-referrer",
        });
        res.end(asset.body);
        return;
      }
    }
    const api = url.pathname === CHAT_API_PATH || url.pathname.startsWith(`${CHAT_API_PATH}/`);
    if (!api) return reply(res, 404, `Not found: the chat API is ${CHAT_API_PATH}`);
    const client = guard.credential(req);
    if (client === "missing" || client === "invalid") {
      res.setHeader("WWW-Authenticate", bearerChallenge(client));
      return reply(
        res,
        401,
        client === "missing"
          ? "Unauthorized: send 'Authorization: Bearer <token>' (skillrt serve says where its token file is)"
          : "Unauthorized: the bearer token is not valid",
      );
    }
    if (url.pathname !== CHAT_API_PATH) {
      // GET /api/chat/<id>: the saved conversation as UI messages, to resume it in a client.
      const id = decodeURIComponent(url.pathname.slice(CHAT_API_PATH.length + 1));
      if (method !== "GET") return reply(res, 405, `Method not allowed: GET ${CHAT_API_PATH}/<id>`);
      if (!CONVERSATION_ID.test(id)) return reply(res, 400, "Bad request: not a conversation id");
      const history = await options.loadHistory(id);
      if (history === undefined) return reply(res, 404, `No conversation '${id}' is saved`);
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ id, messages: uiMessagesOfHistory(id, history) }));
      return;
    }
    if (method !== "POST") {
      res.setHeader("Allow", "POST");
      return reply(res, 405, `Method not allowed: POST ${CHAT_API_PATH}`);
    }
    if (draining) {
      res.setHeader("Retry-After", "1");
      return reply(res, 503, "Shutting down: send the turn to another replica");
    }
    const body = await readBody(req, maxBody);
    if (body === "too-large") {
      res.setHeader("Connection", "close");
      return reply(res, 413, `Request body over ${maxBody} bytes: send only the last message`);
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      return reply(res, 400, "Bad request: the body is not JSON");
    }
    const request = readChatRequest(json);
    if (!request.ok) return reply(res, 400, `Bad request: ${request.message}`);
    const now = Date.now();
    const recent = (started.get(client) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= perMinute) {
      res.setHeader("Retry-After", String(Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000))));
      return reply(res, 429, `Too many turns: ${perMinute} a minute per client. Retry later`);
    }
    if (turns.size >= maxTurns) {
      res.setHeader("Retry-After", "1");
      return reply(res, 503, `Busy: ${maxTurns} turns are running. Retry shortly`);
    }
    recent.push(now);
    started.set(client, recent);

    const abort = new AbortController();
    let settle!: () => void;
    const turn = { abort, done: new Promise<void>((resolve) => (settle = resolve)) };
    turns.add(turn);
    // A turn is over when its agent is closed (the turn saved) and its response has ended.
    let open = 2;
    const ended = (): void => {
      if (--open > 0) return;
      turns.delete(turn);
      settle();
    };
    // The client went away before the answer ended: cancel the turn (it is saved as it stands).
    const onClose = (): void => {
      if (!res.writableFinished) abort.abort();
      ended();
    };
    res.on("close", onClose);
    let agent: SkillAgent;
    try {
      agent = await options.createAgent(request.conversationId);
    } catch (error) {
      turns.delete(turn);
      settle();
      res.off("close", onClose);
      report(error);
      return reply(
        res,
        SkillrtError.isInstance(error) && error.code === "store-error" ? 503 : 500,
        SkillrtError.isInstance(error)
          ? error.message
          : "Internal error: the conversation could not be opened",
      );
    }
    const response = uiTurnResponse(agent, request.input, {
      abortSignal: abort.signal,
      ...(request.approvals === undefined ? {} : { approvals: request.approvals }),
      ...(request.messageId === undefined ? {} : { messageId: request.messageId }),
      onSettled: async ({ error }) => {
        if (error !== undefined && !abort.signal.aborted) report(error);
        await agent.close().catch(report);
        ended();
      },
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    if (response.body === null) {
      res.end();
      return;
    }
    const stream = Readable.fromWeb(response.body as never);
    stream.on("error", (error) => {
      report(error);
      res.destroy();
    });
    stream.pipe(res);
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      report(error);
      if (!res.headersSent) reply(res, 500, "Internal error");
      else res.end();
    });
  });
  // Streams can be long: no request timeout past the headers, but slow senders of headers are cut.
  httpServer.requestTimeout = 0;
  httpServer.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    running: () => turns.size,
    async close() {
      draining = true;
      const closing = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const all = (): Promise<unknown> => Promise.all([...turns].map((t) => t.done));
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), graceMs);
      });
      if ((await Promise.race([all(), graceOver])) === "late") {
        for (const turn of turns) turn.abort.abort();
        await all();
      }
      clearTimeout(timer);
      httpServer.closeAllConnections();
      await closing;
    },
  };
}

async function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | "too-large"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) return "too-large";
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return "too-large";
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function reply(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify({ error: message }));
}
