import { mib } from "./archive-entry.js";
import { RemoteRootError } from "./remote-root-error.js";

/** 64 MiB: the most a remote root may download. */
export const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

/** Options of {@link fetchCapped}. */
export interface FetchCappedOptions {
  /** Most bytes read. Default {@link MAX_DOWNLOAD_BYTES}. */
  maxBytes?: number;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  abortSignal?: AbortSignal;
}

/**
 * The body of `url` (redirects followed), or a {@link RemoteRootError} that names the URL and, for a
 * response outside 2xx, its HTTP status; a body past `maxBytes` is cut off and refused.
 */
export async function fetchCapped(url: string, options: FetchCappedOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? MAX_DOWNLOAD_BYTES;
  const fail = (why: string): never => {
    throw new RemoteRootError({ code: "root-fetch-failed", message: `Cannot fetch ${url}: ${why}.` });
  };
  // `fetch` refuses URLs with credentials: `https://user:token@host/…` becomes a Basic authorization.
  let target = url;
  const headers: Record<string, string> = {};
  try {
    const parsed = new URL(url);
    if (parsed.username !== "" || parsed.password !== "") {
      const user = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
      headers["authorization"] = `Basic ${Buffer.from(user).toString("base64")}`;
      parsed.username = "";
      parsed.password = "";
      target = parsed.href;
    }
  } catch {
    fail("it is not a valid URL");
  }
  let response: Response;
  try {
    response = await (options.fetch ?? globalThis.fetch)(target, {
      headers,
      redirect: "follow",
      ...(options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return fail(cause?.code ?? cause?.message ?? (error as Error).message);
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
        if (size > maxBytes) {
          await response.body.cancel().catch(() => {});
          fail(`it is over the ${mib(maxBytes)} download limit`);
        }
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      if (error instanceof RemoteRootError) throw error;
      fail(`the download broke off (${(error as Error).message})`);
    }
  }
  return Buffer.concat(chunks, size);
}
