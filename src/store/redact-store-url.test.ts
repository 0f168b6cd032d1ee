import { describe, expect, it } from "vitest";
import { redactStoreUrl, withoutStoreSecrets } from "./redact-store-url.js";

describe("redactStoreUrl", () => {
  it("hides the password whatever it holds and whatever the scheme, keeping user and host", () => {
    const cases: Array<[string, string]> = [
      ["postgres://me:pw@db:5432/app", "postgres://me:***@db:5432/app"],
      ["postgres://me:p/w@db/app", "postgres://me:***@db/app"],
      ["postgres://me:p@w@db/app", "postgres://me:***@db/app"],
      ["postgresql://:only-pw@db/app", "postgresql://:***@db/app"],
      ["mysql://root:x%2Fy@h/x", "mysql://root:***@h/x"],
      ["weird+scheme://u:a:b:c@h", "weird+scheme://u:***@h"],
      ["me:pw@db:5432/app", "me:***@db:5432/app"],
      ["postgres://db/app?password=pw&sslmode=require", "postgres://db/app?password=***&sslmode=require"],
      ["postgres://me@db/app", "postgres://me@db/app"],
      ["sqlite:./a@b.db", "sqlite:./a@b.db"],
      ["sqlite:///srv/a@b.db", "sqlite:///srv/a@b.db"],
      ["sqlite://u:pw@host/db", "sqlite://u:***@host/db"],
    ];
    for (const [url, shown] of cases) expect(redactStoreUrl(url), url).toBe(shown);
  });

  it("scrubs a driver's message of the URL and of the password as written or decoded", () => {
    const url = "postgres://me:s%40cret/x@db/app";
    expect(withoutStoreSecrets(`failed for ${url}: bad s@cret/x and s%40cret/x`, url)).toBe(
      "failed for postgres://me:***@db/app: bad *** and ***",
    );
  });
});
