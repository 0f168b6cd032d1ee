/**
 * The one redaction of store URLs, for every place one is shown (errors, `--json`, logs, the inspector):
 * whatever the scheme (`postgres://`, `mysql://`, one never heard of, none at all) and whatever the
 * password holds (`/`, `@`, `%`, `:`, non-ASCII, an empty user), nothing of the password is kept.
 */

/** Query parameters whose values are secrets (`?password=`, `sslpassword=`, `token=`, `api_key=` …). */
const SECRET_PARAM = /([?&;](?:[^=&#;]*(?:pass|pwd|secret|token|key|auth)[^=&#;]*)=)[^&#;]*/gi;

/** The parts of a URL's credentials: the text before and after them, and the password as written. */
interface Credentials {
  /** Everything up to the userinfo (`postgres://`), or "" when the URL has no `scheme://`. */
  head: string;
  /** The user as written ("" when none). */
  user: string;
  /** The password as written, or undefined when the userinfo has no `:`. */
  password: string | undefined;
  /** Everything after the last `@` (host, port, path, query). */
  rest: string;
}

/**
 * The userinfo of `url`: what lies between `scheme://` (or the start, when there is none) and the LAST
 * `@` — a password may hold `@` and `/`, so no earlier `@` or `/` can be trusted to end it. Undefined when
 * the URL has no `@`. A `sqlite:PATH` (a file name, never credentials) has none either.
 */
function credentials(url: string): Credentials | undefined {
  if (/^sqlite:(?!\/\/[^/])/i.test(url)) return undefined;
  const at = url.lastIndexOf("@");
  if (at < 0) return undefined;
  const head = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? "";
  const userinfo = url.slice(head.length, at);
  const colon = userinfo.indexOf(":");
  return {
    head,
    user: colon < 0 ? userinfo : userinfo.slice(0, colon),
    password: colon < 0 ? undefined : userinfo.slice(colon + 1),
    rest: url.slice(at + 1),
  };
}

/**
 * `url` safe to print: the password replaced by `***` (`postgres://me:***@db:5432/app`), and the values of
 * secret-looking query parameters too. A URL without credentials comes back unchanged.
 */
export function redactStoreUrl(url: string): string {
  const parts = credentials(url);
  const shown =
    parts === undefined
      ? url
      : `${parts.head}${parts.user}${parts.password === undefined ? "" : ":***"}@${parts.rest}`;
  return shown.replace(SECRET_PARAM, "$1***");
}

/** The secrets in `url` as they could appear in text: the password as written and decoded, query secrets. */
function secretsOf(url: string): string[] {
  const out = new Set<string>();
  const password = credentials(url)?.password;
  if (password !== undefined) {
    out.add(password);
    try {
      out.add(decodeURIComponent(password));
    } catch {
      // not percent-encoded text: kept as written
    }
  }
  for (const match of url.matchAll(SECRET_PARAM)) {
    const value = url.slice((match.index ?? 0) + match[1]!.length).split(/[&#;]/)[0] ?? "";
    out.add(value);
    try {
      out.add(decodeURIComponent(value));
    } catch {
      // kept as written
    }
  }
  // Too short to replace without mangling the message (and to tell anything away).
  return [...out].filter((secret) => secret.length >= 3).sort((a, b) => b.length - a.length);
}

/**
 * `text` (an error message from a driver or a server) with the URL and every secret of `url` in it
 * replaced: the URL by its {@link redactStoreUrl} form, the password (as written or decoded) by `***`.
 */
export function withoutStoreSecrets(text: string, url: string): string {
  let out = text.split(url).join(redactStoreUrl(url));
  for (const secret of secretsOf(url)) out = out.split(secret).join("***");
  return out;
}
