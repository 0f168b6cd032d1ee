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

describe("redaction: the cheap wins (hex, any case, line breaks)", () => {
  const secret = "Sk-Live_0123456789abcdef";
  const r = createRedactor([secret]);

  it("redacts hex in either case, and the value in any letter case", () => {
    const hex = Buffer.from(secret).toString("hex");
    expect(r.redact(`dump ${hex} end`)).toBe("dump [redacted] end");
    expect(r.redact(`DUMP ${hex.toUpperCase()} END`)).toBe("DUMP [redacted] END");
    expect(r.redact(`lower ${secret.toLowerCase()} upper ${secret.toUpperCase()}`)).toBe(
      "lower [redacted] upper [redacted]",
    );
  });

  it("redacts a value, its base64 and its hex broken over lines (fold, wrapped base64, CRLF)", () => {
    const folded = secret.match(/.{1,5}/g)?.join("\n") ?? "";
    expect(r.redact(`a\n${folded}\nb`)).toBe("a\n[redacted]\nb");
    const b64 = Buffer.from(`prefix ${secret} suffix`).toString("base64");
    const wrapped = b64.match(/.{1,7}/g)?.join("\r\n") ?? "";
    expect(r.redact(wrapped)).toContain("[redacted]");
    const hexLines = (
      Buffer.from(secret)
        .toString("hex")
        .match(/.{1,16}/g) ?? []
    ).join("\n");
    expect(r.redact(hexLines)).toBe("[redacted]");
  });

  it("keeps ordinary text and regex metacharacters in secrets literal", () => {
    const meta = createRedactor(["a.b*c(d)[e]$"]);
    expect(meta.redact("axbbbcd e a.b*c(d)[e]$")).toBe("axbbbcd e [redacted]");
    expect(r.redact("nothing secret here\n")).toBe("nothing secret here\n");
  });

  it("redacts a cut-off prefix in any case at the end of capped output", () => {
    expect(r.redactTail(`tail ${secret.slice(0, 9).toUpperCase()}`)).toBe("tail [redacted]");
  });
});
