import { existsSync } from "node:fs";
import { readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "./sandbox-executor.js";
import {
  type BubblewrapSandboxSession,
  createBubblewrapSandboxSession,
} from "./sandbox-session-bubblewrap.js";

const probe = probeSandbox();
if (!probe.ok) console.log(`skipping bubblewrap SandboxSession tests: ${probe.reason}`);

describe.skipIf(!probe.ok)("skillrt's bubblewrap sandbox as an AI SDK SandboxSession", () => {
  let sandbox: BubblewrapSandboxSession;
  beforeAll(async () => {
    sandbox = await createBubblewrapSandboxSession();
  });
  afterAll(async () => {
    const dir = sandbox.hostDir;
    await sandbox.stop();
    expect(existsSync(dir)).toBe(false);
  });

  it("shares one base directory between commands and the file API", async () => {
    await sandbox.writeTextFile({ path: "notes/a.txt", content: "one\ntwo\nthree\n" });
    const r = await sandbox.run({ command: "pwd; cat notes/a.txt; echo made > /workspace/notes/b.txt" });
    expect(r).toEqual({ exitCode: 0, stdout: "/workspace\none\ntwo\nthree\n", stderr: "" });
    expect(await sandbox.readTextFile({ path: "/workspace/notes/b.txt" })).toBe("made\n");
    expect(await sandbox.readTextFile({ path: "notes/a.txt", startLine: 2, endLine: 3 })).toBe("two\nthree");
    expect(await sandbox.readBinaryFile({ path: "missing" })).toBeNull();
    expect(await sandbox.stat({ path: "notes" })).toMatchObject({ type: "directory" });
    expect(await sandbox.stat({ path: "notes/a.txt" })).toEqual({ type: "file", size: 14 });
    const listed = (await sandbox.listDirectory({ path: "notes" }))?.sort((x, y) =>
      x.name.localeCompare(y.name),
    );
    expect(listed).toEqual([
      { name: "a.txt", type: "file" },
      { name: "b.txt", type: "file" },
    ]);
    expect(await sandbox.deleteFile({ path: "notes/b.txt" })).toBe(true);
    expect(await sandbox.deleteFile({ path: "notes/b.txt" })).toBe(false);
    await expect(sandbox.deleteFile({ path: "notes" })).rejects.toThrow(/is a directory/);
  });

  it("refuses file API paths outside the base directory, also through links a command made", async () => {
    await expect(sandbox.readTextFile({ path: "/etc/hostname" })).rejects.toThrow(/outside the sandbox/);
    await expect(sandbox.writeTextFile({ path: "../escape.txt", content: "x" })).rejects.toThrow(/outside/);
    const made = await sandbox.run({
      command: "ln -s /etc/passwd passwd-link; ln -s ../.. up; ln -s /workspace/notes inside-link",
    });
    expect(made.exitCode).toBe(0);
    // On the host these links would reach the host's files; the session resolves them as the sandbox does.
    await expect(sandbox.readTextFile({ path: "passwd-link" })).rejects.toThrow(/outside/);
    await expect(sandbox.writeTextFile({ path: "up/tmp/evil.txt", content: "x" })).rejects.toThrow(/outside/);
    expect(await sandbox.readTextFile({ path: "inside-link/a.txt" })).toBe("one\ntwo\nthree\n");
    expect((await sandbox.listDirectory({ path: "." }))?.find((e) => e.name === "up")?.type).toBe("symlink");
    // A host-side link planted in the directory is refused too, and deleting a link removes only the link.
    const outside = path.join(path.dirname(sandbox.hostDir), `outside-${process.pid}.txt`);
    await writeFile(outside, "host file\n");
    await symlink(outside, path.join(sandbox.hostDir, "host-link"));
    await expect(sandbox.writeTextFile({ path: "host-link", content: "overwritten" })).rejects.toThrow(
      /outside/,
    );
    expect(await sandbox.deleteFile({ path: "host-link" })).toBe(true);
    expect(await readFile(outside, "utf8")).toBe("host file\n");
  });

  it("runs commands isolated: no host files, no network, not root", async () => {
    const r = await sandbox.run({
      command: `id -u; cat /etc/shadow 2>&1 | head -1; ls ${sandbox.hostDir} 2>&1 | head -1; python3 -c 'import socket; socket.create_connection(("1.1.1.1", 53), 2)' 2>/dev/null || echo NONET`,
    });
    const [uid, shadow, listing, net] = r.stdout.trim().split("\n");
    expect(uid).toBe("1000");
    expect(shadow).toMatch(/No such file/);
    expect(listing).toMatch(/No such file/);
    expect(net).toBe("NONET");
  });

  it("spawns with stdin, streams output, and kills on abort", async () => {
    const proc = await sandbox.spawn({
      command: "tr a-z A-Z; echo err >&2; exit 4",
      stdin: true,
      env: { X: "1" },
    });
    const writer = proc.stdin.getWriter();
    await writer.write(new TextEncoder().encode("hello\n"));
    await writer.close();
    const [out, err, status] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.wait(),
    ]);
    expect([out, err, status]).toEqual(["HELLO\n", "err\n", { exitCode: 4 }]);

    const controller = new AbortController();
    const sleeper = await sandbox.spawn({ command: "sleep 30", abortSignal: controller.signal });
    const started = Date.now();
    setTimeout(() => controller.abort(new Error("stop now")), 100);
    await expect(sleeper.wait()).rejects.toThrow(/stop now/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
