import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "./__fixtures__/make-skill.js";
import { createContainerExecutor, probeContainerEngine } from "./container-executor.js";
import { createExecutor } from "./create-executor.js";
import { probeSandbox } from "./sandbox-executor.js";

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("createExecutor", () => {
  it("auto picks the sandbox when bubblewrap works", () => {
    const chosen = createExecutor();
    expect(chosen.executor.kind).toBe(probeSandbox().ok ? "sandbox" : "local");
  });

  it("auto falls back to local with a one-time warning when bubblewrap is missing", async () => {
    const chosen = createExecutor({ sandbox: { bwrapPath: "/nonexistent/bwrap" } });
    expect(chosen.executor.kind).toBe("local");
    expect(chosen.warning).toContain("apt-get install bubblewrap");
    const request = { command: ["true"], cwd: dir, env: {}, timeoutMs: 5000 };
    const first = await chosen.executor.run(request);
    const second = await chosen.executor.run(request);
    expect(first.warnings[0]).toContain("bubblewrap sandbox unavailable");
    expect(second.warnings).toEqual([]);
  });

  it("a command that cannot start is exit -1 with the reason", async () => {
    const { executor } = createExecutor({ kind: "local" });
    const r = await executor.run({ command: ["/nonexistent/program"], cwd: dir, env: {}, timeoutMs: 5000 });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/nonexistent/);
  });
});

const engine = probeContainerEngine();
if (!engine.ok) console.log(`skipping container executor tests: ${engine.reason}`);

describe.skipIf(!engine.ok)("container executor (needs a running docker/podman engine)", () => {
  it("runs with no network and the workspace mounted read-write", async () => {
    const executor = createContainerExecutor();
    const r = await executor.run({
      command:
        "echo hi > out.txt; cat out.txt; python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 80), 2)' || echo NONET",
      cwd: dir,
      env: { A: "b" },
      timeoutMs: 120_000,
      mounts: [{ source: dir, readOnly: false }],
    });
    expect(r.stdout).toContain("hi");
    expect(r.stdout).toContain("NONET");
    expect(r.executor).toBe("container");
  });
});
