/**
 * Workspaces another local user prepared in advance: the predictable path of old, the per-user base,
 * and a recorded workspace swapped for someone else's. None is ever used; nothing outside the real
 * workspace changes, however many runs go through.
 */
import { chmod, chown, mkdir, readdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createWorkspace,
  defaultWorkspaceBase,
  openWorkspace,
  resumeWorkspace,
} from "../../src/exec/create-workspace.js";
import {
  asNobody,
  attackExecutor,
  attackSkill,
  contextFor,
  runAndShow,
  secondUid,
  snapshot,
  tempDir,
} from "./support.js";

describe.skipIf(!secondUid.ok)(
  `workspaces pre-created by another user (uid 65534)${secondUid.ok ? "" : `: skipped, ${secondUid.reason}`}`,
  () => {
    let shared: string; // a world-writable sticky directory, like /tmp
    let victim: string; // a directory the attacker wants changed (outside every workspace)
    let savedTmp: string | undefined;

    beforeAll(async () => {
      shared = await tempDir("skillrt-sec-shared-");
      await chmod(shared, 0o1777);
      victim = await tempDir("skillrt-sec-victim-");
      await writeFile(path.join(victim, "precious.txt"), "do not touch\n");
      await mkdir(path.join(victim, "skills", "attacker"), { recursive: true });
      await writeFile(path.join(victim, "skills", "attacker", "keep.txt"), "keep\n");
    });
    afterAll(async () => {
      await rm(shared, { recursive: true, force: true });
      await rm(victim, { recursive: true, force: true });
    });
    beforeEach(() => {
      savedTmp = process.env["TMPDIR"];
      process.env["TMPDIR"] = shared;
    });
    afterEach(() => {
      if (savedTmp === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = savedTmp;
    });

    it("the old predictable path, planted with skills → elsewhere, is never used by a session's runs", async () => {
      const sessionId = "s-1234";
      const planted = path.join(shared, `skillrt-ws-${sessionId}`);
      asNobody(
        `mkdir -m 777 ${planted} && ln -s ${victim}/skills ${planted}/skills && ln -s ${victim} ${planted}/runs`,
      );
      const before = await snapshot(victim);
      const plantedBefore = await snapshot(planted);
      const skills = await tempDir("skillrt-sec-skill-");
      const skill = await attackSkill(skills);
      const ws = await createWorkspace({ id: sessionId });
      try {
        expect(ws.root).not.toBe(planted);
        expect(path.dirname(ws.root)).toBe(path.join(os.tmpdir(), `skillrt-${process.getuid?.()}`));
        const { result, seen } = await runAndShow(
          {
            name: "attacker",
            command: "echo ran > $OUTPUT_DIR/o.txt",
            outputs: { globs: ["out/*"], inline: true },
          },
          contextFor(ws, skill, attackExecutor()),
        );
        expect(result.status).toBe("ran");
        expect(seen).toContain("ran");
      } finally {
        await ws.dispose();
        await rm(skills, { recursive: true, force: true });
      }
      expect(await snapshot(victim)).toEqual(before);
      expect(await snapshot(planted)).toEqual(plantedBefore);
    });

    it("a per-user base planted by another user is refused with a clear message, and nothing in it is touched", async () => {
      const base = path.join(shared, `skillrt-${process.getuid?.()}`);
      await rm(base, { recursive: true, force: true });
      asNobody(`mkdir -m 777 ${base} && ln -s ${victim} ${base}/skillrt-ws-x`);
      const plantedBefore = await snapshot(base);
      const before = await snapshot(victim);
      await expect(createWorkspace()).rejects.toThrow(/refusing the workspace base .*owned by uid 65534/);
      await expect(defaultWorkspaceBase()).rejects.toThrow(/Remove it, or choose another base directory/);
      expect(await snapshot(base)).toEqual(plantedBefore);
      expect(await snapshot(victim)).toEqual(before);
      await rm(base, { recursive: true, force: true });
    });

    it("a TMPDIR reached through another user's symlink, or below a folder others can write, is refused", async () => {
      // Where the link leads is the user's own private folder: only the link is the other user's.
      const own = await tempDir("skillrt-sec-own-tmp-");
      asNobody(`ln -s ${own} ${shared}/tmp-link`);
      process.env["TMPDIR"] = path.join(shared, "tmp-link");
      await expect(createWorkspace()).rejects.toThrow(
        new RegExp(
          `refusing the workspace base .*: ${shared}/tmp-link on its path is a symlink owned by uid 65534`,
        ),
      );
      expect(await readdir(own)).toEqual([]); // nothing created through the link
      // A folder anyone can write (not sticky) on the way: they could rename the user's folder away.
      const open = await tempDir("skillrt-sec-open-");
      await mkdir(path.join(open, "tmp"), { mode: 0o700 });
      await chmod(open, 0o777);
      process.env["TMPDIR"] = path.join(open, "tmp");
      await expect(createWorkspace()).rejects.toThrow(
        /other users can write to .* on its path \(mode 0777\)/,
      );
      expect(await readdir(path.join(open, "tmp"))).toEqual([]);
      await rm(own, { recursive: true, force: true });
      await rm(open, { recursive: true, force: true });
    });

    it("a recorded workspace replaced by another user's folder is refused on resume; a fresh one is made", async () => {
      const ws = await createWorkspace();
      const recorded = ws.root;
      await ws.dispose();
      // Our base is 0700, so no other user can get in there; plant the folder as root and hand it to
      // uid 65534, as a lax base or an administrator's mistake would.
      await mkdir(recorded);
      await symlink(path.join(victim, "skills"), path.join(recorded, "skills"));
      await chown(recorded, 65534, 65534);
      const plantedBefore = await snapshot(recorded);
      const before = await snapshot(victim);
      const opened = await openWorkspace(recorded);
      expect("error" in opened && opened.error).toMatch(
        /was not used: it is owned by uid 65534.*Nothing in it was touched/,
      );
      const resumed = await resumeWorkspace(recorded);
      try {
        expect(resumed.workspace.root).not.toBe(recorded);
        expect(resumed.warning).toMatch(/not used.*A new workspace was created/);
        const skills = await tempDir("skillrt-sec-skill-");
        const skill = await attackSkill(skills);
        const { result } = await runAndShow(
          { name: "attacker", command: "true" },
          contextFor(resumed.workspace, skill, attackExecutor()),
        );
        expect(result.status).toBe("ran");
        await rm(skills, { recursive: true, force: true });
      } finally {
        await resumed.workspace.dispose();
      }
      expect(await snapshot(recorded)).toEqual(plantedBefore);
      expect(await snapshot(victim)).toEqual(before);
      await rm(recorded, { recursive: true, force: true });
    });

    it("our own recorded workspace with a layout folder swapped for a symlink is refused on resume", async () => {
      const ws = await createWorkspace();
      await rename(ws.skillsDir, `${ws.skillsDir}.old`);
      await symlink(path.join(victim, "skills"), ws.skillsDir);
      const before = await snapshot(victim);
      const opened = await openWorkspace(ws.root);
      expect("error" in opened && opened.error).toMatch(/skills is not a directory \(a symlink or a file\)/);
      expect(await snapshot(victim)).toEqual(before);
      await ws.dispose();
      expect(await snapshot(victim)).toEqual(before);
    });
  },
);
