import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openRecordedTrust, untrustedRootsOf } from "./recorded-trust.js";
import { digestRoot } from "./root-digest.js";
import { readTrustRecords, recordTrust } from "./trust-file.js";
import type { SkillRecord } from "./types.js";

let base: string;
let root: string;
let state: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "skillrt-rtrust-"));
  root = path.join(base, "skills");
  state = path.join(base, "state");
  await mkdir(path.join(root, "a"), { recursive: true });
  await writeFile(path.join(root, "a", "SKILL.md"), "---\nname: a\ndescription: d\n---\n");
});
afterEach(() => rm(base, { recursive: true, force: true }));

const record = { name: "a", scope: "project", source: "" } as unknown as SkillRecord;

describe("root digests and recorded trust", () => {
  it("a digest changes with any edit, added file or mode change", async () => {
    const first = await digestRoot(root);
    expect(await digestRoot(root)).toBe(first);
    await writeFile(path.join(root, "a", "x.sh"), "echo\n");
    const second = await digestRoot(root);
    expect(second).not.toBe(first);
    const { chmod } = await import("node:fs/promises");
    await chmod(path.join(root, "a", "x.sh"), 0o755);
    expect(await digestRoot(root)).not.toBe(second);
  });

  it("project roots need trust, user roots do not; a record with the current digest trusts, an edit untrusts", async () => {
    const roots = untrustedRootsOf([
      { path: root, scope: "project" },
      { path: path.join(base, "user"), scope: "user" },
    ]);
    expect(roots.map((r) => r.origin)).toEqual([{ kind: "fs", id: root }]);
    const subject = { ...record, source: root };
    expect((await openRecordedTrust({ roots, stateDir: state })).isTrusted(subject)).toBe(false);
    recordTrust(state, { kind: "fs", id: root }, await digestRoot(root));
    expect(readTrustRecords(state)).toHaveLength(1);
    const trust = await openRecordedTrust({ roots, stateDir: state });
    expect(trust.isTrusted(subject)).toBe(true);
    expect(trust.isTrusted({ ...record, scope: "user", source: path.join(base, "user") })).toBe(true);
    await writeFile(path.join(root, "a", "SKILL.md"), "---\nname: a\ndescription: changed\n---\n");
    const after = await openRecordedTrust({ roots, stateDir: state });
    expect(after.isTrusted(subject)).toBe(false);
    expect(after.howToTrust(subject)).toBe(`skillrt trust ${root}`);
  });

  it("ask is put once per root, and a yes is recorded", async () => {
    const roots = untrustedRootsOf([{ path: root, scope: "project" }]);
    let asked = 0;
    const trust = await openRecordedTrust({
      roots,
      stateDir: state,
      ask: async () => {
        asked += 1;
        return true;
      },
    });
    const subject = { ...record, source: root };
    await Promise.all([trust.ask?.(subject), trust.ask?.(subject)]);
    expect(asked).toBe(1);
    expect(trust.isTrusted(subject)).toBe(true);
    expect((await openRecordedTrust({ roots, stateDir: state })).isTrusted(subject)).toBe(true);
  });

  it("a root trusted by its digest pins that digest; a root trusted by name or not at all pins nothing", async () => {
    const roots = untrustedRootsOf([{ path: root, scope: "project" }]);
    const subject = { ...record, source: root };
    const digest = await digestRoot(root);
    recordTrust(state, { kind: "fs", id: root }, digest);
    const trust = await openRecordedTrust({ roots, stateDir: state });
    expect(trust.pinOf?.(subject)).toEqual({ root, digest, howToTrust: `skillrt trust ${root}` });
    expect(trust.pinOf?.({ ...record, scope: "user", source: path.join(base, "user") })).toBeUndefined();
    const byName = await openRecordedTrust({ roots, stateDir: undefined, trusted: [root] });
    expect(byName.isTrusted(subject)).toBe(true);
    expect(byName.pinOf?.(subject)).toBeUndefined();
  });

  it("a change after the trust was opened untrusts the root in the same process, said once", async () => {
    const roots = untrustedRootsOf([{ path: root, scope: "project" }]);
    const subject = { ...record, source: root };
    recordTrust(state, { kind: "fs", id: root }, await digestRoot(root));
    const warnings: string[] = [];
    const trust = await openRecordedTrust({ roots, stateDir: state, warn: (w) => warnings.push(w) });
    expect(trust.isTrusted(subject)).toBe(true);
    expect(trust.isTrusted(subject)).toBe(true);
    await mkdir(path.join(root, "a", "node_modules", "x"), { recursive: true });
    await writeFile(path.join(root, "a", "node_modules", "x", "index.js"), "planted\n");
    expect(trust.isTrusted(subject)).toBe(false);
    expect(trust.isTrusted(subject)).toBe(false);
    expect(trust.untrusted().map((r) => r.path)).toEqual([root]);
    expect(warnings).toEqual([
      `${root} changed since its trust was checked: its skills are untrusted until trusted again (skillrt trust ${root}).`,
    ]);
    // Its pin stays: a run that got past the check is still checked against the trusted digest.
    expect(trust.pinOf?.(subject)?.root).toBe(root);
  });

  it("a yes in chat trusts the content as it was when the question was put, not a change made meanwhile", async () => {
    const roots = untrustedRootsOf([{ path: root, scope: "project" }]);
    const shown = await digestRoot(root);
    const trust = await openRecordedTrust({
      roots,
      stateDir: state,
      ask: async () => {
        // The root changes while the person reads the question.
        await writeFile(path.join(root, "a", "run.sh"), "echo planted\n");
        return true;
      },
    });
    const subject = { ...record, source: root };
    expect(await trust.ask?.(subject)).toBe(true);
    expect(trust.pinOf?.(subject)?.digest).toBe(shown);
    expect(readTrustRecords(state).map((r) => r.digest)).toEqual([shown]);
    // The next process finds the root changed since the yes.
    expect((await openRecordedTrust({ roots, stateDir: state })).isTrusted(subject)).toBe(false);
  });

  it("a recorded root too large to digest is said, not skipped silently", async () => {
    const roots = untrustedRootsOf([{ path: root, scope: "project" }]);
    recordTrust(state, { kind: "fs", id: root }, await digestRoot(root));
    await mkdir(path.join(root, "a", "node_modules", "dep"), { recursive: true });
    await writeFile(path.join(root, "a", "node_modules", "dep", "big.bin"), Buffer.alloc(1024));
    const warnings: string[] = [];
    const { MAX_DIGEST_BYTES } = await import("./root-digest.js");
    // A file past the byte cap would take 512 MiB of disk: a sparse one reads as zeros, as large.
    const { truncate } = await import("node:fs/promises");
    await truncate(path.join(root, "a", "node_modules", "dep", "big.bin"), MAX_DIGEST_BYTES + 1);
    const trust = await openRecordedTrust({ roots, stateDir: state, warn: (w) => warnings.push(w) });
    expect(trust.isTrusted({ ...record, source: root })).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${root} is not trusted: ${root} holds more than 512 MiB`);
  });

  it("remote roots are recorded by their URL", () => {
    const cached = path.join(base, "cache", "x");
    const roots = untrustedRootsOf(
      [{ path: cached, scope: "root" }],
      new Map([[cached, { source: "https://example.com/s.tgz" }]]),
    );
    expect(roots).toEqual([
      {
        path: cached,
        origin: { kind: "remote", id: "https://example.com/s.tgz" },
        display: "https://example.com/s.tgz",
      },
    ]);
  });
});
