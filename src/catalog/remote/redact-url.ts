/**
 * `text` with the credentials of any URL in it (`https://user:token@host/…`) replaced by `***`: root
 * specs may carry a token for a private server, and diagnostics and listed sources must not show it.
 */
export function redactUrl(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, "$1***@");
}
