import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillRecord } from "../catalog/types.js";
import { makeSkill, makeTempDir } from "./__fixtures__/make-skill.js";
import { createWorkspace } from "./create-workspace.js";
import { createSandboxExecutor, probeSandbox } from "./sandbox-executor.js";
import type { StagedSkill, Workspace } from "./workspace.js";

const probe = probeSandbox();
if (!probe.ok) console.log(`skipping sandbox tests: ${probe.reason}`);

describe.skipIf(!probe.ok)("sandbox executor isolation (real bubblewrap)", () => {
  let base: string;
  let ws: Workspace;
  let skill: SkillRecord;
  let staged: StagedSkill;
  const executor = createSandboxExecutor();

  beforeAll(async () => {
    base = await makeTempDir();
    ws = await createWorkspace({ baseDir: base, id: "iso" });
    skill = await makeSkill("iso-skill", {
      "scripts/hello.sh": "#!/bin/sh\necho hello\n",
      "data.txt": "original\n",
    });
    staged = await ws.stageSkill(skill);
  });
  afterAll(async () => {
    await ws.dispose();
    await rm(base, { recursive: true, force: true });
    await rm(path.dirname(skill.dir), { recursive: true, force: true });
  });

  async function sh(script: string) {
    const runDir = await ws.createRunDir();
    return executor.run({
      command: ["/bin/sh", "-c", script],
      cwd: staged.viewDir,
      env: ws.runEnv(staged, runDir),
      timeoutMs: 20_000,
      mounts: ws.mounts(staged),
    });
  }

  it("sees the workspace variables and can write to $OUTPUT_DIR and $WORK_DIR", async () => {
    const r = await sh(
      'echo "$WORKSPACE_DIR|$SKILLS_DIR|$WORK_DIR|$OUTPUT_DIR|$RUN_DIR|$SKILL_NAME|$HOME"; echo x > "$OUTPUT_DIR/a.txt"; echo y > "$WORK_DIR/b.txt"; echo z > "$RUN_DIR/c.txt"; pwd',
    );
    expect(r.exitCode).toBe(0);
    const [vars, cwd] = r.stdout.trim().split("\n");
    const [wsDir, skillsDir, workDir, outDir, runDir, name, home] = (vars ?? "").split("|");
    expect(wsDir).toBe(ws.root);
    expect(skillsDir).toBe(ws.skillsDir);
    expect(workDir).toBe(ws.workDir);
    expect(outDir).toBe(ws.outDir);
    expect(runDir?.startsWith(ws.runsDir)).toBe(true);
    expect(name).toBe("iso-skill");
    expect(home).toBe(ws.homeDir);
    expect(cwd).toBe(staged.viewDir);
    expect(await readFile(path.join(ws.outDir, "a.txt"), "utf8")).toBe("x\n");
    expect(await readFile(path.join(ws.workDir, "b.txt"), "utf8")).toBe("y\n");
    expect(r.executor).toBe("sandbox");
  });

  it("cannot write into the skill, its view, or anywhere outside the workspace", async () => {
    const outside = await makeTempDir("skillrt-outside-");
    const r = await sh(
      [
        "echo hacked > data.txt && echo WROTE-data",
        `echo hacked > ${skill.dir}/data.txt && echo WROTE-real`,
        `echo new > ${skill.dir}/new.txt && echo WROTE-new`,
        "echo new > new-in-view.txt && echo WROTE-view",
        "echo x > /usr/evil && echo WROTE-usr",
        `echo x > ${outside}/evil && echo WROTE-outside`,
        "echo x > /evil && echo WROTE-root",
        "true",
      ].join("; "),
    );
    expect(r.stdout).not.toContain("WROTE");
    expect(await readFile(path.join(skill.dir, "data.txt"), "utf8")).toBe("original\n");
    expect(existsSync(path.join(skill.dir, "new.txt"))).toBe(false);
    expect(existsSync(path.join(staged.viewDir, "new-in-view.txt"))).toBe(false);
    expect(existsSync(path.join(outside, "evil"))).toBe(false);
    await rm(outside, { recursive: true, force: true });
  });

  it("cannot read files outside what is mounted (home dir, /work, /root)", async () => {
    const homeDir = await mkdtemp(path.join(os.homedir(), ".skillrt-exec-test-"));
    const secretFile = path.join(homeDir, "secret.txt");
    await writeFile(secretFile, "TOP-SECRET-CONTENT");
    try {
      const r = await sh(
        `cat ${secretFile}; cat /work/briefs/common.md | head -c 100; ls /root; ls /work; ls /; cat /etc/shadow; cat /etc/passwd`,
      );
      expect(r.stdout).not.toContain("TOP-SECRET-CONTENT");
      expect(r.stdout).not.toContain("Common rules");
      expect(r.stdout).not.toMatch(/^(briefs|main|shared)$/m);
      expect(r.stdout).not.toContain("root:");
      expect(r.stderr).toMatch(/No such file/);
    } finally {
      await rm(homeDir, { recursive: true, force: true });
    }
  });

  it("cannot connect to a TCP listener on the host's 127.0.0.1", async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const py = `import socket\ns=socket.socket()\ns.settimeout(3)\ntry:\n  s.connect(("127.0.0.1",${port}))\n  print("CONNECTED")\nexcept Exception as e:\n  print("FAILED", type(e).__name__)\n`;
      const r = await sh(`python3 -c '${py}'`);
      expect(r.stdout).toContain("FAILED");
      expect(r.stdout).not.toContain("CONNECTED");
      const js = `const s=require("net").connect(${port},"127.0.0.1");s.on("connect",()=>{console.log("CONNECTED");process.exit(0)});s.on("error",e=>{console.log("FAILED",e.code)})`;
      const r2 = await sh(`node -e '${js}'`);
      expect(r2.stdout).toContain("FAILED");
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("runs as a non-root user without capabilities, in its own pid namespace", async () => {
    const r = await sh("id -u; grep CapEff /proc/self/status; ls /proc | grep -c '^[0-9]'");
    const [uid, caps] = r.stdout.trim().split("\n");
    expect(uid).not.toBe("0");
    expect(caps).toMatch(/0000000000000000/);
  });
});
