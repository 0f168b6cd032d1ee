/**
 * `text` with the credentials of every URL in it (`https://user:token@host/…`) replaced by `***`: root
 * specs may carry a token for a private server, and no message, diagnostic, listed source, lock file or
 * cache record may show it. Every remote-root URL that reaches text goes through this one function
 * (`RemoteRootError` applies it to its message).
 *
 * The userinfo is found as the WHATWG URL parser finds it (up to the last `@` before the first `/`, `?`,
 * `#` or `\`), so `@`, `:` and percent-escapes in a password are covered. A URL that does not parse —
 * typically a password with a raw `/` (`https://u:a/b@host/`) — has everything up to its last `@`
 * redacted: when the structure is unclear, more is hidden, never less.
 */
export function redactUrl(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)(\S+)/gi, (_match, scheme: string, run: string) => {
    const authorityEnd = run.search(/[/?#\\]/);
    const lastAt = run.lastIndexOf("@", authorityEnd < 0 ? run.length : authorityEnd);
    if (lastAt >= 0) return `${scheme}***${run.slice(lastAt)}`;
    if (!run.includes("@") || parses(scheme + run.replace(/['")\]}>,.;:!?]+$/, ""))) return scheme + run;
    return `${scheme}***${run.slice(run.lastIndexOf("@"))}`;
  });
}

function parses(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}
