import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../__fixtures__/capture-io.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";
import { main } from "../main.js";

let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;
beforeEach(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp.dir, "skills");
  await writeSkill(
    root,
    "special",
    `name: r&d<x>\ndescription: 'Handles <tags> & "quotes" and it''s > fine'`,
  );
  await writeSkill(
    path.join(tmp.dir, "real"),
    "multi",
    "name: multi\ndescription: |\n  Line one\n  Line two",
  );
  await fs.mkdir(path.join(tmp.dir, "links"));
  await fs.symlink(path.join(tmp.dir, "real", "multi"), path.join(tmp.dir, "links", "multi"));
  await writeSkill(root, "plain", fm("plain", "Plain skill."));
  await writeSkill(root, "hidden", fm("hidden", "Not for the model.", "disable-model-invocation: true"));
});
afterEach(async () => {
  await tmp.cleanup();
});

async function prompt(args: string[]) {
  const io = captureIo({ cwd: tmp.dir });
  const code = await main(["prompt", ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe("skillrt prompt", () => {
  it("reproduces skills-ref to-prompt byte for byte (escaping, symlinks resolved, order given)", async () => {
    const { code, out } = await prompt(["skills/special", "links/multi/SKILL.md", "--format", "agentskills"]);
    expect(code).toBe(0);
    expect(out).toBe(
      [
        "<available_skills>",
        "<skill>",
        "<name>",
        "r&amp;d&lt;x&gt;",
        "</name>",
        "<description>",
        "Handles &lt;tags&gt; &amp; &quot;quotes&quot; and it&#x27;s &gt; fine",
        "</description>",
        "<location>",
        path.join(root, "special", "SKILL.md"),
        "</location>",
        "</skill>",
        "<skill>",
        "<name>",
        "multi",
        "</name>",
        "<description>",
        "Line one\nLine two",
        "</description>",
        "<location>",
        path.join(tmp.dir, "real", "multi", "SKILL.md"),
        "</location>",
        "</skill>",
        "</available_skills>",
        "",
      ].join("\n"),
    );
  });

  it("prints '- name: description' lines by default from the roots, omitting hidden skills", async () => {
    const { code, out } = await prompt(["--root", "skills"]);
    expect(code).toBe(0);
    expect(out).toBe(`- plain: Plain skill.\n- r&d<x>: Handles <tags> & "quotes" and it's > fine\n`);
  });

  it("renders markdown and xml", async () => {
    const markdown = await prompt(["skills/plain", "--format", "markdown"]);
    expect(markdown.out).toBe("- [○] **plain**: Plain skill.\n");
    const xml = await prompt(["skills/plain", "-f", "xml"]);
    expect(xml.out).toBe(
      `<available_skills>\n  <skill>\n    <name>plain</name>\n    <description>Plain skill.</description>\n    <location>${path.join(root, "plain", "SKILL.md")}</location>\n  </skill>\n</available_skills>\n`,
    );
  });

  it("prints nothing (and says so) when no skill is visible, except the empty agentskills element", async () => {
    const list = await prompt(["skills/hidden"]);
    expect(list.code).toBe(0);
    expect(list.out).toBe("");
    expect(list.err).toContain("No skills to show");
    const agentskills = await prompt(["--root", "nowhere-empty", "--format", "agentskills"]);
    expect(agentskills.out).toBe("<available_skills>\n</available_skills>\n");
  });

  it("aborts the whole output when one PATH cannot be read (exit 1)", async () => {
    await writeSkill(root, "broken", "description: no name here");
    const { code, out, err } = await prompt(["skills/plain", "skills/broken", "--format", "agentskills"]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toContain("name");
    const missing = await prompt(["skills/none"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe("skillrt prompt: Path does not exist: skills/none\n");
  });

  it("rejects an unknown format (exit 2)", async () => {
    const { code, err } = await prompt(["--format", "yaml"]);
    expect(code).toBe(2);
    expect(err).toContain("choose list, agentskills, xml, markdown");
  });
});
