import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillRecord } from "../catalog/types.js";
import { renderRunText } from "../tools/render-run-result.js";
import { toSkillRunOutput } from "../tools/skill-run-output.js";
import { makeSkill, makeTempDir } from "./__fixtures__/make-skill.js";
import { createFsArtifactStore } from "./artifact-store.js";
import { createExecutor } from "./create-executor.js";
import { createWorkspace } from "./create-workspace.js";
import type { SkillRunConfig, SkillRunContext } from "./run-config.js";
import type { SkillRunResult } from "./run-skill-command.js";
import { runSkillCommand } from "./run-skill-command.js";
import type { Workspace } from "./workspace.js";

/** What the model reads of a run (the tools layer's rendering). */
function modelText(result: SkillRunResult): string {
  return result.status === "refused" ? result.message : renderRunText(toSkillRunOutput(result));
}

const SECRET = "sk-live-9f8e7d6c5b4a39281706abcdefXYZ";

const LEAK_SCRIPT = `#!/bin/sh
# Prints the secret in every way it can.
echo "plain: $API_TOKEN"
echo "stderr: $API_TOKEN" >&2
printf '%s' "$API_TOKEN" | base64
printf 'xx%s' "$API_TOKEN" | base64 -w0; echo
printf 'y%s' "$API_TOKEN" | base64 -w0; echo
python3 -c 'import os,urllib.parse;print(urllib.parse.quote(os.environ["API_TOKEN"]+"/ &"))'
echo "token=$API_TOKEN" > "$OUTPUT_DIR/leak.txt"
echo "{\\"token\\": \\"$API_TOKEN\\"}" > "$OUTPUT_DIR/leak.json"
`;

describe("runSkillCommand", () => {
  let base: string;
  let ws: Workspace;
  let skill: SkillRecord;
  let other: SkillRecord;
  let context: SkillRunConfig;
  const { executor } = createExecutor();

  beforeAll(async () => {
    base = await makeTempDir();
    ws = await createWorkspace({ baseDir: base });
    skill = await makeSkill("leaky", {
      "scripts/leak.sh": LEAK_SCRIPT,
      "scripts/boundary.sh": `#!/bin/sh\nhead -c ${16 * 1024 - 10} /dev/zero | tr '\\0' a\nprintf '%s\\n' "$API_TOKEN"\nhead -c 100 /dev/zero | tr '\\0' b\n`,
      "assets/data.csv": "a,b\n1,2\n",
    });
    other = await makeSkill("other", { "notes.md": "other skill notes\n" });
    context = {
      environment: {
        workspace: ws,
        executor,
        skillEnv: { leaky: { API_TOKEN: SECRET } },
        artifactStore: createFsArtifactStore(path.join(base, "artifacts")),
        hostDirs: [base],
      },
      lookup: {
        getSkill: (name) => ({ leaky: skill, other })[name],
        closest: () => ["leaky"],
      },
    };
  });
  afterAll(async () => {
    await ws.dispose();
    for (const dir of [base, path.dirname(skill.dir), path.dirname(other.dir)])
      await rm(dir, { recursive: true, force: true });
  });

  function assertNoSecret(text: string): void {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SECRET.slice(0, 12));
    expect(text).not.toContain(Buffer.from(SECRET).toString("base64").slice(0, 20));
    expect(text).not.toContain(encodeURIComponent(`${SECRET}/ &`).slice(0, 20));
  }

  it("never returns a secret: plain, stderr, base64 (any alignment), URL-encoded, output files", async () => {
    const result = await runSkillCommand(
      {
        name: "leaky",
        command: "sh scripts/leak.sh",
        outputs: { globs: ["$OUTPUT_DIR/leak.*"], inline: true },
      },
      context,
    );
    expect(result.status).toBe("ran");
    if (result.status !== "ran") return;
    expect(result.exitCode).toBe(0);
    const text = modelText(result);
    assertNoSecret(text);
    assertNoSecret(JSON.stringify(result));
    expect(text).toContain("plain: [redacted]");
    expect(text).toContain("stderr: [redacted]");
    expect(text).toContain("token=[redacted]");
    expect(result.outputFiles.map((f) => f.name)).toEqual(["out/leak.json", "out/leak.txt"]);
    // The file on disk keeps the real value: only what goes back to the model is redacted.
    expect(await readFile(path.join(ws.outDir, "leak.txt"), "utf8")).toContain(SECRET);
  });

  it("never returns a secret split across the stdout cap", async () => {
    const result = await runSkillCommand({ name: "leaky", command: ["sh", "scripts/boundary.sh"] }, context);
    if (result.status !== "ran") throw new Error(result.message);
    expect(result.truncated.stdout).toBe(true);
    assertNoSecret(result.stdout);
    for (let n = 4; n < SECRET.length; n++)
      expect(result.stdout.replace(/\n…\[truncated \d+ bytes\]$/, "")).not.toMatch(
        new RegExp(`${SECRET.slice(0, n)}$`),
      );
    const small = await runSkillCommand(
      { name: "leaky", command: ["sh", "scripts/boundary.sh"] },
      { ...context, policy: { maxOutputBytes: 16 * 1024 - 5 } },
    );
    if (small.status !== "ran") throw new Error(small.message);
    assertNoSecret(small.stdout);
  });

  it("gives secrets only to their own skill", async () => {
    const result = await runSkillCommand({ name: "other", command: 'echo "token=[$API_TOKEN]"' }, context);
    if (result.status !== "ran") throw new Error(result.message);
    expect(result.stdout).toBe("token=[]\n");
  });

  it("refuses unknown skills, unloaded skills when required, and bad input, as messages", async () => {
    const unknown = await runSkillCommand({ name: "leeky", command: "true" }, context);
    expect(unknown).toMatchObject({ status: "refused" });
    expect(modelText(unknown)).toContain("Did you mean: leaky");
    const unloaded = await runSkillCommand(
      { name: "leaky", command: "true" },
      { ...context, policy: { requireLoaded: true }, lookup: { ...context.lookup, isLoaded: () => false } },
    );
    expect(modelText(unloaded)).toContain('skill_run requires skill_load first for "leaky"');
    const loaded = await runSkillCommand(
      { name: "leaky", command: "true" },
      { ...context, policy: { requireLoaded: true }, lookup: { ...context.lookup, isLoaded: () => true } },
    );
    expect(loaded.status).toBe("ran");
  });

  it("still takes the flat context of earlier versions: its command policy, loaded check and secrets apply", async () => {
    const flat: SkillRunContext = {
      ...context.environment,
      ...context.lookup,
      requireLoaded: true,
      isLoaded: () => true,
      policy: { deny: ["curl"] },
    };
    const denied = await runSkillCommand({ name: "leaky", command: "curl http://x" }, flat);
    expect(modelText(denied)).toContain("'curl' is on the deny list");
    const unloaded = await runSkillCommand(
      { name: "leaky", command: "true" },
      { ...flat, isLoaded: () => false, loadToolName: "load_skill" },
    );
    expect(modelText(unloaded)).toContain('skill_run requires load_skill first for "leaky"');
    const ran = await runSkillCommand({ name: "leaky", command: 'echo "[$API_TOKEN]"' }, flat);
    expect(ran).toMatchObject({ status: "ran", stdout: "[[redacted]]\n" });
  });

  it("applies the command policy: deny wins, allow list checks every simple command", async () => {
    const policy = { allow: ["echo", "python3", "curl", "env"], deny: ["curl", "rm"] };
    const denied = await runSkillCommand(
      { name: "leaky", command: "echo hi && curl http://x" },
      { ...context, policy },
    );
    expect(denied).toMatchObject({ status: "refused" });
    expect(modelText(denied)).toContain("'curl' is on the deny list");
    const notAllowed = await runSkillCommand(
      { name: "leaky", command: "echo hi | FOO=1 env -i wget x" },
      { ...context, policy },
    );
    expect(modelText(notAllowed)).toContain("'wget' is not on the allow list");
    const argv = await runSkillCommand(
      { name: "leaky", command: ["/bin/rm", "-rf", "x"] },
      { ...context, policy },
    );
    expect(argv.status).toBe("refused");
    const ok = await runSkillCommand(
      { name: "leaky", command: "echo fine; python3 -c 'print(2)'" },
      { ...context, policy },
    );
    expect(ok).toMatchObject({ status: "ran", stdout: "fine\n2\n" });
  });

  it("confines cwd to the skill and the workspace", async () => {
    const inside = await runSkillCommand({ name: "leaky", command: "pwd; ls", cwd: "assets" }, context);
    expect(inside).toMatchObject({ status: "ran" });
    if (inside.status === "ran") expect(inside.stdout).toContain("data.csv");
    const work = await runSkillCommand({ name: "leaky", command: "pwd", cwd: "$WORK_DIR" }, context);
    if (work.status === "ran") expect(work.stdout.trim()).toBe(ws.workDir);
    for (const cwd of ["../../..", "/etc", "../other"]) {
      const escaped = await runSkillCommand({ name: "leaky", command: "pwd", cwd }, context);
      expect(escaped.status).toBe("refused");
    }
  });

  it("stages inputs from host, workspace, skill and artifacts; refuses host paths not allowed", async () => {
    await writeFile(path.join(base, "host-in.txt"), "from host\n");
    const store = context.environment.artifactStore!;
    await store.save("report.txt", Buffer.from("artifact v1\n"), "text/plain");
    await store.save("report.txt", Buffer.from("artifact v2\n"), "text/plain");
    const result = await runSkillCommand(
      {
        name: "leaky",
        command:
          "cd $WORK_DIR && cat inputs/host-in.txt inputs/notes.md inputs/report.txt old.txt inputs/linked.txt",
        inputs: [
          { from: `host://${path.join(base, "host-in.txt")}` },
          { from: "skill://other/notes.md" },
          { from: "artifact://report.txt@1" },
          { from: "workspace://work/inputs/host-in.txt", to: "work/old.txt" },
          { from: `host://${path.join(base, "host-in.txt")}`, to: "inputs/linked.txt", mode: "link" },
        ],
      },
      context,
    );
    if (result.status !== "ran") throw new Error(result.message);
    expect(result.stdout).toBe("from host\nother skill notes\nartifact v1\nfrom host\nfrom host\n");
    expect(result.stagedInputs.find((s) => s.from.startsWith("artifact"))?.version).toBe(1);
    const refused = await runSkillCommand(
      { name: "leaky", command: "true", inputs: [{ from: "host:///etc/passwd" }] },
      context,
    );
    expect(modelText(refused)).toContain("outside the allowed host directories");
    const escapes = await runSkillCommand(
      {
        name: "leaky",
        command: "true",
        inputs: [
          { from: "skill://other/../leaky/SKILL.md" },
          { from: "workspace://../x" },
          { from: "ftp://x" },
        ],
      },
      context,
    );
    expect(modelText(escapes)).toMatch(/outside skill 'other'[\s\S]*outside the workspace[\s\S]*unsupported/);
  });

  it("kills a run at its timeout and says so", async () => {
    const result = await runSkillCommand({ name: "leaky", command: "sleep 30", timeout: 0.3 }, context);
    if (result.status !== "ran") throw new Error(result.message);
    expect(result.timedOut).toBe(true);
    expect(modelText(result)).toContain("timed out");
  });
});
