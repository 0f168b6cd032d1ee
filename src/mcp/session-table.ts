/**
 * The open sessions of `skillrt mcp --http` and what each client holds: a session counts against its
 * client from the moment its initialize is accepted, so concurrent initializes cannot overshoot a cap. A
 * session in use (a request in flight, an event stream open) is never idle; idle ones expire, and a full
 * server closes the one idle longest first.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** One open session. */
export interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** When its last request started or ended (its last event stream closed). */
  lastSeen: number;
  /** Its requests in flight and open event streams: while any is, the session is in use, never idle. */
  busy: number;
  /** The credential that opened it (a token's index, or the remote address without auth). */
  client: string;
}

/** The sessions of one server. */
export interface SessionTable {
  get(id: string): Session | undefined;
  /** Sessions open now. */
  readonly size: number;
  /** What `client` holds: its sessions, those it is opening and (stateless) its requests in flight. */
  held(client: string): number;
  /** Counts one more for `client` (a session being opened, a stateless request); the release is idempotent. */
  hold(client: string): () => void;
  /** Adds a session whose count `hold` took: closing the session releases it. */
  add(id: string, session: Session, release: () => void): void;
  /** Closes a session and its server. */
  close(id: string): void;
  /** Closes every session idle past the timeout. */
  expire(): void;
  /**
   * Closes the session (of `client`, when given) idle longest, if it has been idle long enough; else gives
   * the seconds until one may be (for `Retry-After`).
   */
  evictOldestIdle(client?: string): { evicted: true } | { evicted: false; retryAfter: number };
  /** Closes every session. */
  closeAll(): Promise<void>;
}

/** A table whose sessions expire after `idleMs` unused and may be evicted after `evictAfterMs`. */
export function createSessionTable(options: {
  idleMs: number;
  evictAfterMs: number;
  now: () => number;
  report: (error: unknown) => void;
}): SessionTable {
  const { idleMs, evictAfterMs, now, report } = options;
  const sessions = new Map<string, { session: Session; release: () => void }>();
  const counts = new Map<string, number>();
  /** How long `session` has been idle: 0 while a request or event stream of it is open. */
  const idleFor = (session: Session, at: number): number => (session.busy > 0 ? 0 : at - session.lastSeen);
  const table: SessionTable = {
    get: (id) => sessions.get(id)?.session,
    get size() {
      return sessions.size;
    },
    held: (client) => counts.get(client) ?? 0,
    hold(client) {
      counts.set(client, (counts.get(client) ?? 0) + 1);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        const left = (counts.get(client) ?? 1) - 1;
        if (left <= 0) counts.delete(client);
        else counts.set(client, left);
      };
    },
    add(id, session, release) {
      sessions.set(id, { session, release });
    },
    close(id) {
      const entry = sessions.get(id);
      if (entry === undefined) return;
      sessions.delete(id);
      entry.release();
      void entry.session.transport.close().catch(report);
      void entry.session.server.close().catch(report);
    },
    expire() {
      const at = now();
      for (const [id, { session }] of sessions) if (idleFor(session, at) > idleMs) table.close(id);
    },
    evictOldestIdle(client) {
      const at = now();
      let oldest: { id: string; idle: number } | undefined;
      let soonest = evictAfterMs;
      for (const [id, { session }] of sessions) {
        if (client !== undefined && session.client !== client) continue;
        if (session.busy > 0) continue;
        const idle = idleFor(session, at);
        if (idle >= evictAfterMs && (oldest === undefined || idle > oldest.idle)) oldest = { id, idle };
        soonest = Math.min(soonest, evictAfterMs - idle);
      }
      if (oldest !== undefined) {
        table.close(oldest.id);
        return { evicted: true };
      }
      return { evicted: false, retryAfter: Math.max(1, Math.ceil(soonest / 1000)) };
    },
    async closeAll() {
      const open = [...sessions.values()].map((e) => e.session);
      sessions.clear();
      counts.clear();
      await Promise.all(
        open.map(async (s) => {
          await s.transport.close().catch(report);
          await s.server.close().catch(report);
        }),
      );
    },
  };
  return table;
}
