import { describe, expect, it } from "vitest";
import { createSandboxPathMap, shellQuote } from "./sandbox-path-map.js";

describe("createSandboxPathMap", () => {
  const map = createSandboxPathMap("/sbx/.skillrt-host", ["/tmp/ws", "/tmp/ws/skills", "/home/u/skills/pdf"]);

  it("maps whole host paths into the sandbox and back", () => {
    expect(map.toSandbox("/tmp/ws/out")).toBe("/sbx/.skillrt-host/tmp/ws/out");
    expect(map.mapText("python3 /home/u/skills/pdf/scripts/a.py --out=/tmp/ws/out/x.pdf")).toBe(
      "python3 /sbx/.skillrt-host/home/u/skills/pdf/scripts/a.py --out=/sbx/.skillrt-host/tmp/ws/out/x.pdf",
    );
    expect(map.mapText("cd /tmp/ws && ls '/tmp/ws/skills'")).toBe(
      "cd /sbx/.skillrt-host/tmp/ws && ls '/sbx/.skillrt-host/tmp/ws/skills'",
    );
    expect(map.unmapText("wrote /sbx/.skillrt-host/tmp/ws/out/x.pdf")).toBe("wrote /tmp/ws/out/x.pdf");
  });

  it("leaves paths that only share a prefix alone", () => {
    expect(map.mapText("/tmp/wsx/file /tmp/ws2 /home/u/skills/pdf-old")).toBe(
      "/tmp/wsx/file /tmp/ws2 /home/u/skills/pdf-old",
    );
  });
});

describe("shellQuote", () => {
  it("quotes anything a shell would interpret", () => {
    expect(shellQuote("plain/path-1.txt")).toBe("plain/path-1.txt");
    expect(shellQuote("it's $HOME; rm -rf /")).toBe(`'it'\\''s $HOME; rm -rf /'`);
    expect(shellQuote("")).toBe("''");
  });
});
