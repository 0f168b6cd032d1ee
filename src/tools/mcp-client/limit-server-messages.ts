/**
 * A rate limit on what an MCP server sends on its own (notifications and requests to the client): a
 * server that floods them — 100,000 log lines or progress updates — would otherwise have every one
 * validated and dispatched by the SDK, and its memory grows with the flood. Messages over the limit are
 * dropped at the transport, before the SDK sees them; responses to the client's own requests always pass.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** Options of {@link limitServerMessages}. */
export interface ServerMessageLimit {
  /** Messages per second a server may send on its own, on average. Default 50. */
  perSecond?: number;
  /** Messages it may send at once before the rate applies. Default 200. */
  burst?: number;
  /** Called once, the first time messages are dropped. */
  onFirstDrop?: () => void;
  /** Clock (tests). Default `Date.now`. */
  now?: () => number;
}

/** What {@link limitServerMessages} counts. */
export interface ServerMessageCounts {
  /** Messages dropped so far. */
  dropped(): number;
}

/** A token bucket for one server's own messages: `take(method)` is true while a message may pass. */
export interface MessageBucket extends ServerMessageCounts {
  take(method: string): boolean;
}

/** A `…/list_changed` notification passes at most once per this many ms; the others say nothing new. */
const LIST_CHANGED_MS = 1000;

/**
 * A token bucket (`burst` at once, refilled at `perSecond`); a `take()` it refuses counts as dropped, and
 * the first calls `onFirstDrop`. `…/list_changed` notifications are coalesced instead: one of each method
 * passes per second, without using a token, so they can neither flood nor crowd out progress.
 */
export function createMessageBucket(options: ServerMessageLimit = {}): MessageBucket {
  const perSecond = options.perSecond ?? 50;
  const burst = options.burst ?? 200;
  const now = options.now ?? Date.now;
  let tokens = burst;
  let last = now();
  let dropped = 0;
  const listChanged = new Map<string, number>();
  return {
    take(method) {
      const at = now();
      if (method.endsWith("/list_changed")) {
        const previous = listChanged.get(method);
        if (previous !== undefined && at - previous < LIST_CHANGED_MS) return false;
        // A server names a handful of lists; a server inventing methods gets them refused.
        if (previous === undefined && listChanged.size >= 16) return false;
        listChanged.set(method, at);
        return true;
      }
      tokens = Math.min(burst, tokens + ((at - last) / 1000) * perSecond);
      last = at;
      if (tokens < 1) {
        dropped += 1;
        if (dropped === 1) options.onFirstDrop?.();
        return false;
      }
      tokens -= 1;
      return true;
    },
    dropped: () => dropped,
  };
}

type OnMessage = NonNullable<Transport["onmessage"]>;

/**
 * Installs the limit on `transport`: whatever `onmessage` handler the SDK sets (now or later) receives
 * the server's responses as they come, and its notifications and requests through a token bucket
 * (`burst` at once, refilled at `perSecond`). Call before `client.connect(transport)`.
 */
export function limitServerMessages(
  transport: Transport,
  options: ServerMessageLimit = {},
): ServerMessageCounts {
  const bucket = createMessageBucket(options);
  let handler: OnMessage | undefined;

  const limited: OnMessage = (message, extra) => {
    if ("method" in message && !bucket.take(message.method)) return;
    handler?.(message, extra);
  };

  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => (handler === undefined ? undefined : limited),
    set: (value: OnMessage | undefined) => {
      handler = value;
    },
  });
  return { dropped: bucket.dropped };
}
