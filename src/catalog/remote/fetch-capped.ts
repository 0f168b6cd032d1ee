import { mib } from "./archive-entry.js";
import { RemoteRootError } from "./remote-root-error.js";
import {
  defaultTransferLimits,
  seconds,
  startTransferDeadline,
  type TransferLimits,
} from "./transfer-limits.js";

/** 64 MiB: the most a remote root may download. */
export const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

/** 5: the most redirects one download follows. */
export const MAX_REDIRECTS = 5;

/** Options of {@link fetchCapped}. */
export interface FetchCappedOptions {
  /** Most bytes read. Default {@link MAX_DOWNLOAD_BYTES}. */
  maxBytes?: number;
  /** Deadline and minimum rate. Default {@link defaultTransferLimits}. */
  transfer?: TransferLimits;
  /** Most redirects followed. Default {@link MAX_REDIRECTS}. */
  maxRedirects?: number;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  abortSignal?: AbortSignal;
}

/**
 * The body of `url`, or a {@link RemoteRootError} that names the URL (credentials redacted) and why: a
 * response outside 2xx (with its status), a body past `maxBytes` (cut off), the deadline or minimum
 * rate of `transfer` (counted from the first request, redirects included), a redirect to a weaker
 * scheme (`https:` to `http:`, or to anything but http(s)), or more than `maxRedirects` redirects.
 * Credentials in the URL are sent as Basic authorization to its own origin only, never after a
 * redirect to another.
 */
export async function fetchCapped(url: string, options: FetchCappedOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? MAX_DOWNLOAD_BYTES;
  const transfer = options.transfer ?? defaultTransferLimits;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const fail = (why: string): never => {
    throw new RemoteRootError({ code: "root-fetch-failed", message: `Cannot fetch ${url}: ${why}.` });
  };
  // `fetch` refuses URLs with credentials: `https://user:token@host/…` becomes a Basic authorization.
  let target: URL;
  let authorization: string | undefined;
  try {
    target = new URL(url);
  } catch {
    return fail("it is not a valid URL");
  }
  if (target.username !== "" || target.password !== "") {
    const user = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
    authorization = `Basic ${Buffer.from(user).toString("base64")}`;
    target.username = "";
    target.password = "";
  }
  const origin = target.origin;

  // One clock for the whole download: the deadline, and the bytes seen in each low-speed window.
  const deadline = startTransferDeadline(transfer, options.abortSignal);
  const { signal } = deadline;
  const halt = deadline.stop;
  let windowBytes = 0;
  const lowSpeed =
    transfer.lowSpeedBytesPerSecond > 0
      ? setInterval(() => {
          if (windowBytes < (transfer.lowSpeedBytesPerSecond * transfer.lowSpeedMs) / 1000)
            halt(
              `the transfer was slower than ${transfer.lowSpeedBytesPerSecond} bytes/s for ${seconds(transfer.lowSpeedMs)} (SKILLRT_REMOTE_LOW_SPEED_LIMIT, SKILLRT_REMOTE_LOW_SPEED_TIME)`,
            );
          windowBytes = 0;
        }, transfer.lowSpeedMs)
      : undefined;
  const broke = (error: unknown): never => {
    if (error instanceof RemoteRootError) throw error;
    const stopped = deadline.stopped();
    if (stopped !== undefined) return fail(stopped);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return fail(cause?.code ?? cause?.message ?? (error as Error).message);
  };

  try {
    let response: Response;
    for (let redirects = 0; ; redirects++) {
      const headers: Record<string, string> = {};
      if (authorization !== undefined && target.origin === origin) headers["authorization"] = authorization;
      try {
        response = await (options.fetch ?? globalThis.fetch)(target.href, {
          headers,
          redirect: "manual",
          signal,
        });
      } catch (error) {
        return broke(error);
      }
      const location = response.headers.get("location");
      if (![301, 302, 303, 307, 308].includes(response.status) || location === null) break;
      await response.body?.cancel().catch(() => {});
      if (redirects >= maxRedirects) fail(`it redirects more than ${maxRedirects} times`);
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        return fail(`it redirects to an invalid URL`);
      }
      if (next.protocol !== "https:" && next.protocol !== "http:")
        fail(`it redirects to a ${next.protocol} URL; only http(s) is followed`);
      if (target.protocol === "https:" && next.protocol === "http:")
        fail(
          `it redirects from https to plain http (${next.origin}), which would drop the encryption; refused. Use the final https URL, if there is one`,
        );
      next.username = "";
      next.password = "";
      target = next;
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => {});
      const text = response.statusText === "" ? "" : ` ${response.statusText}`;
      return fail(`HTTP ${response.status}${text}`);
    }
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => {});
      fail(`it is ${mib(declared)}, over the ${mib(maxBytes)} download limit`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (response.body !== null) {
      try {
        for await (const chunk of response.body) {
          size += chunk.byteLength;
          windowBytes += chunk.byteLength;
          if (size > maxBytes) {
            await response.body.cancel().catch(() => {});
            fail(`it is over the ${mib(maxBytes)} download limit`);
          }
          chunks.push(Buffer.from(chunk));
        }
      } catch (error) {
        if (error instanceof RemoteRootError) throw error;
        const stopped = deadline.stopped();
        if (stopped !== undefined) fail(stopped);
        fail(`the download broke off (${(error as Error).message})`);
      }
    }
    return Buffer.concat(chunks, size);
  } finally {
    deadline.done();
    if (lowSpeed !== undefined) clearInterval(lowSpeed);
  }
}
