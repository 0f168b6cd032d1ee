import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOutputCapture } from "./output-capture.js";
import { createRedactor } from "./redact.js";

describe("redaction", () => {
  it("removes a secret embedded in any base64 stream at any offset", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40 }),
        fc.string({ maxLength: 10 }),
        fc.string({ maxLength: 10 }),
        (secret, pre, post) => {
          const r = createRedactor([secret]);
          const encoded = Buffer.from(pre + secret + post).toString("base64");
          expect(r.redact(encoded)).toContain("[redacted]");
          expect(r.redact(encodeURIComponent(pre + secret + post))).toContain("[redacted]");
          expect(r.redact(`${pre}${secret}${post}`)).not.toContain(secret);
        },
      ),
    );
  });

  it("redacts a secret cut by the output cap at any position", () => {
    const secret = "SECRET-abcdef-0123456789";
    const r = createRedactor([secret]);
    for (let pad = 0; pad < 40; pad++) {
      const capture = createOutputCapture(32, 0);
      capture.push(Buffer.from(`${"x".repeat(pad)}${secret}${"y".repeat(50)}`));
      const { text } = capture.finish(r);
      for (let n = 4; n <= secret.length; n++) expect(text).not.toContain(secret.slice(0, n));
    }
  });

  it("ignores values too short to redact safely", () => {
    const r = createRedactor(["abc", ""]);
    expect(r.active).toBe(false);
    expect(r.ignored).toEqual(["abc"]);
  });
});
