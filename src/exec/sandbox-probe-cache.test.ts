import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { rememberedSandboxProbe, rememberSandboxProbe } from "./sandbox-probe-cache.js";

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillrt-probe-")));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("remembers a successful probe per bwrap binary and forgets it when the binary changes", () => {
  // A stand-in binary: the cache keys on its identity, not on what it does.
  const binary = `${tmp}/bin/bwrap`;
  fs.mkdirSync(path.dirname(binary));
  fs.writeFileSync(binary, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const cache = `${tmp}/cache`;
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBe(false);
  rememberSandboxProbe(binary, 1000, cache);
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBe(true);
  // Another uid inside the sandbox, another binary, or no cache directory: not remembered.
  expect(rememberedSandboxProbe(binary, 0, cache)).toBe(false);
  expect(rememberedSandboxProbe(`${tmp}/bin/other`, 1000, cache)).toBe(false);
  expect(rememberedSandboxProbe(binary, 1000, undefined)).toBe(false);
  // An upgraded binary (new content, size and times) is probed again.
  fs.writeFileSync(binary, "#!/bin/sh\n# upgraded\nexit 0\n");
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBe(false);
  // A corrupt cache file is ignored, and no temporary files are left.
  rememberSandboxProbe(binary, 1000, cache);
  fs.writeFileSync(`${cache}/sandbox-probe.json`, "{not json");
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBe(false);
  expect(fs.readdirSync(cache)).toEqual(["sandbox-probe.json"]);
  // A remembered time in the future (clock moved back) is not trusted.
  fs.writeFileSync(`${cache}/sandbox-probe.json`, "{}");
  rememberSandboxProbe(binary, 1000, cache);
  const data = JSON.parse(fs.readFileSync(`${cache}/sandbox-probe.json`, "utf8")) as Record<string, number>;
  const [key] = Object.keys(data);
  fs.writeFileSync(`${cache}/sandbox-probe.json`, JSON.stringify({ [key!]: Date.now() + 3_600_000 }));
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBe(false);
});
