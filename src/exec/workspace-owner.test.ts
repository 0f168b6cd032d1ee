import { chmod, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostTag } from "../util/host-tag.js";
import { createWorkspace } from "./create-workspace.js";
import { ownerMarkName } from "./workspace-owner.js";

const DEAD = 4_194_305; // above every system's pid range: never a running process

let base: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-ws-owner-"));
  outside = await mkdtemp(path.join(os.tmpdir(), "skillrt-ws-outside-"));
  await writeFile(path.join(outside, "precious.txt"), "keep\n");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const names = async () => (await readdir(base)).sort();
const claim = (name: string, pid: number, host = hostTag()) =>
  writeFile(path.join(base, ownerMarkName(name)), `${pid} ${host}\n`);

describe.runIf(process.platform === "linux")("workspace owner marks", () => {
  it("the next createWorkspace removes a dead owner's workspace and keeps live, kept and unmarked ones", async () => {
    const orphan = await createWorkspace({ baseDir: base });
    const alive = await createWorkspace({ baseDir: base });
    const kept = await createWorkspace({ baseDir: base, kept: true });
    const mine = await createWorkspace({ baseDir: base });
    const elsewhere = await createWorkspace({ baseDir: base });
    const orphanName = path.basename(orphan.root);
    const aliveName = path.basename(alive.root);
    expect(await names()).toContain(ownerMarkName(path.basename(mine.root)));
    expect(await names()).not.toContain(ownerMarkName(path.basename(kept.root)));
    // The orphan holds what makes removal hard: a read-only folder (as a skill copy is).
    await mkdir(path.join(orphan.workDir, "ro", "deep"), { recursive: true });
    await writeFile(path.join(orphan.workDir, "ro", "deep", "f.txt"), "x");
    await chmod(path.join(orphan.workDir, "ro", "deep"), 0o500);
    await chmod(path.join(orphan.workDir, "ro"), 0o500);
    await claim(orphanName, DEAD);
    await claim(aliveName, process.ppid);
    // A dead pid on another host (a /tmp shared with a container) says nothing about this one.
    await claim(path.basename(elsewhere.root), DEAD, "0badc0de");

    const next = await createWorkspace({ baseDir: base });
    const left = await names();
    expect(left).not.toContain(orphanName);
    expect(left).not.toContain(ownerMarkName(orphanName));
    for (const ws of [alive, kept, mine, elsewhere, next]) expect(left).toContain(path.basename(ws.root));
    expect(left).toContain(ownerMarkName(aliveName));

    // Disposing removes the workspace and its mark.
    await next.dispose();
    expect(await names()).not.toContain(ownerMarkName(path.basename(next.root)));
    expect(await names()).not.toContain(path.basename(next.root));
  });

  it("a link planted under a workspace's name with a dead owner's mark is never followed", async () => {
    await symlink(outside, path.join(base, "skillrt-ws-planted"));
    await claim("skillrt-ws-planted", DEAD);
    await mkdir(path.join(base, "skillrt-ws-notmine"));
    await writeFile(path.join(base, "skillrt-ws-notmine", "f.txt"), "x");
    await writeFile(path.join(base, ".skillrt-ws-notmine.owner"), "not a pid\n");
    await createWorkspace({ baseDir: base });
    expect(await readdir(outside)).toEqual(["precious.txt"]);
    const left = await names();
    expect(left).toContain("skillrt-ws-notmine");
    expect(left).toContain("skillrt-ws-planted");
  });
});
