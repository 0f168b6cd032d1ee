/**
 * Who may talk to a local HTTP server of skillrt (`skillrt mcp --http`, `skillrt serve`): a request's `Host` (and `Origin`, when sent) must name this server,
 * which defeats DNS rebinding, and it must carry one of the bearer tokens (compared in constant time) —
 * or, with auth off (loopback only), it is known by its remote address.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { SkillrtError } from "../errors/skillrt-error.js";

/** Shortest token accepted: a guessable token over loopback is no credential. */
export const MIN_MCP_TOKEN_LENGTH = 32;

/** True for a host name that only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The checks of one server. */
export interface HttpGuard {
  /** Why `Host`/`Origin` do not name this server (listening on `port`), or undefined when they do. */
  rebinding(req: http.IncomingMessage, port: number): string | undefined;
  /**
   * The credential of `req` (`token:<index>`; `address:<ip>` without auth), or why it has none: `missing`
   * (no bearer token sent) or `invalid`. Every token is compared, whatever matches.
   */
  credential(req: http.IncomingMessage): string | "missing" | "invalid";
}

/**
 * The guard of a server on `host` with `tokens` (`undefined`: no credential). Throws `invalid-argument`
 * for an empty token list, a token shorter than {@link MIN_MCP_TOKEN_LENGTH}, or no credential off loopback.
 */
export function createHttpGuard(options: {
  host: string;
  tokens: readonly string[] | undefined;
  allowedHosts?: readonly string[] | undefined;
  /** What the server serves, as refusals name it. Default `MCP`. */
  service?: string;
}): HttpGuard {
  const { host, tokens } = options;
  const loopback = isLoopbackHost(host);
  if (tokens !== undefined && tokens.length === 0)
    throw new SkillrtError({
      code: "invalid-argument",
      message:
        "auth.tokens is empty: give at least one token, or auth: false for no credential (loopback only)",
    });
  if (tokens?.some((t) => t.length < MIN_MCP_TOKEN_LENGTH) === true)
    throw new SkillrtError({
      code: "invalid-argument",
      message: `A bearer token must be at least ${MIN_MCP_TOKEN_LENGTH} characters (e.g. 32 random bytes, base64url)`,
    });
  if (!loopback && tokens === undefined)
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Refusing to serve ${options.service ?? "MCP"} on ${host} without a bearer token: anyone who reaches it could read the skills and run their scripts. Give a token, or listen on 127.0.0.1.`,
    });
  const tokenHashes = (tokens ?? []).map(sha256);
  const wildcard = host === "0.0.0.0" || host === "::";
  const allowed = new Set(
    [
      ...(loopback ? ["localhost", "127.0.0.1", "::1"] : wildcard ? [] : [host]),
      ...(options.allowedHosts ?? []),
    ].map((h) => h.replace(/^\[|\]$/g, "").toLowerCase()),
  );
  return {
    rebinding(req, port) {
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
    },
    credential(req) {
      if (tokens === undefined) return `address:${req.socket.remoteAddress ?? "?"}`;
      const header = req.headers.authorization;
      const match = header === undefined ? null : /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
      if (match === null) return "missing";
      const sent = sha256(match[1]!);
      let found = -1;
      for (const [index, hash] of tokenHashes.entries()) if (timingSafeEqual(sent, hash)) found = index;
      return found === -1 ? "invalid" : `token:${found}`;
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

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750 section 3: no error code when no credential was
 * sent, `invalid_token` for a wrong one).
 */
export function bearerChallenge(client: "missing" | "invalid"): string {
  return client === "missing"
    ? 'Bearer realm="skillrt"'
    : 'Bearer realm="skillrt", error="invalid_token", error_description="the bearer token is not valid"';
}
