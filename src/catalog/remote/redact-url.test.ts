import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url.js";
import { RemoteRootError } from "./remote-root-error.js";

describe("redactUrl", () => {
  it.each([
    [
      "a password with '/' (not a valid URL)",
      "Cannot use root 'https://u:abc/def@host/x.tgz': bad.",
      "abc/def",
    ],
    ["a password with a raw '@'", "Cannot fetch https://u:p@ss@host/x.tgz: HTTP 404.", "p@ss"],
    ["a percent-encoded password", "https://u:p%40ss@host/x.tgz", "p%40ss"],
    ["a password with ':'", "see https://u:a:b@host/ now", "a:b"],
    ["a token-only userinfo in a git URL", "git+https://ghp_secret123@host/o/r.git#main", "ghp_secret123"],
    ["a password with '/' and '@'", "'https://user:x/y@z@host/a.zip'", "x/y@z"],
  ])("hides %s", (_what, text, secret) => {
    const out = redactUrl(text);
    expect(out).not.toContain(secret);
    expect(out).toContain("***@");
  });

  it("keeps URLs without credentials as they are, '@' in a path included", () => {
    for (const text of [
      "https://host/pkg@1.2/x.tgz",
      "https://host:8443/pkg@1.2/x.tgz.",
      "git+file:///tmp/repo#v1",
      "plain text with user@example.com",
    ])
      expect(redactUrl(text)).toBe(text);
  });

  it("applies to every RemoteRootError message, whatever raised it", () => {
    const error = new RemoteRootError({
      code: "root-fetch-failed",
      message: "Cannot fetch https://me:pa/ss@w0rd@host/x.tgz: HTTP 500.",
    });
    expect(error.message).toBe("Cannot fetch https://***@host/x.tgz: HTTP 500.");
  });
});
