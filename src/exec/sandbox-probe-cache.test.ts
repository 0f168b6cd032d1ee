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

it("remembers a successful probe and its facts per bwrap binary and forgets them when the binary changes", () => {
  // A stand-in binary: the cache keys on its identity, not on what it does.
  const binary = `${tmp}/bin/bwrap`;
  fs.mkdirSync(path.dirname(binary));
  fs.writeFileSync(binary, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const cache = `${tmp}/cache`;
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBeUndefined();
  rememberSandboxProbe(binary, 1000, { tmpfsSize: true }, cache);
  expect(rememberedSandboxProbe(binary, 1000, cache)).toEqual({ tmpfsSize: true });
  // Another uid inside the sandbox, another binary, or no cache directory: not remembered.
  expect(rememberedSandboxProbe(binary, 0, cache)).toBeUndefined();
  expect(rememberedSandboxProbe(`${tmp}/bin/other`, 1000, cache)).toBeUndefined();
  expect(rememberedSandboxProbe(binary, 1000, undefined)).toBeUndefined();
  // An upgraded binary (new content, size and times) is probed again.
  fs.writeFileSync(binary, "#!/bin/sh\n# upgraded\nexit 0\n");
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBeUndefined();
  // A corrupt cache file is ignored, and no temporary files are left.
  rememberSandboxProbe(binary, 1000, { tmpfsSize: true }, cache);
  fs.writeFileSync(`${cache}/sandbox-probe.json`, "{not json");
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBeUndefined();
  expect(fs.readdirSync(cache)).toEqual(["sandbox-probe.json"]);
  // A remembered time in the future (clock moved back) is not trusted.
  fs.writeFileSync(`${cache}/sandbox-probe.json`, "{}");
  rememberSandboxProbe(binary, 1000, { tmpfsSize: true }, cache);
  const data = JSON.parse(fs.readFileSync(`${cache}/sandbox-probe.json`, "utf8")) as Record<string, unknown>;
  const [key] = Object.keys(data);
  fs.writeFileSync(
    `${cache}/sandbox-probe.json`,
    JSON.stringify({ [key!]: { at: Date.now() + 3_600_000, tmpfsSize: true } }),
  );
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBeUndefined();
  // The format of earlier versions (a bare time, no facts) is probed again, not guessed.
  fs.writeFileSync(`${cache}/sandbox-probe.json`, JSON.stringify({ [key!]: Date.now() }));
  expect(rememberedSandboxProbe(binary, 1000, cache)).toBeUndefined();
  rememberSandboxProbe(binary, 1000, { tmpfsSize: false }, cache);
  expect(rememberedSandboxProbe(binary, 1000, cache)).toEqual({ tmpfsSize: false });
});
