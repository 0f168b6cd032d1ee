import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../__fixtures__/run-cli.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";

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

const prompt = (args: string[]) => runCli(["prompt", ...args], { cwd: tmp.dir });

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

  it("prints the session's list block by default from the roots, sorted, omitting hidden skills", async () => {
    const { code, out } = await prompt(["--root", "skills"]);
    expect(code).toBe(0);
    expect(out).toBe(
      `Available skills:\n- plain: Plain skill.\n- r&d<x>: Handles <tags> & "quotes" and it's > fine\n`,
    );
  });

  it("renders markdown and xml with the session's headers, escaping xml names, descriptions and locations", async () => {
    const markdown = await prompt(["skills/plain", "--format", "markdown"]);
    expect(markdown.out).toBe("## Available Skills (use when needed)\n\n- [○] **plain**: Plain skill.\n");
    const xml = await prompt(["skills/plain", "-f", "xml"]);
    expect(xml.out).toBe(
      `<available_skills>\n  <skill>\n    <name>plain</name>\n    <description>Plain skill.</description>\n    <location>${path.join(root, "plain", "SKILL.md")}</location>\n  </skill>\n</available_skills>\n`,
    );
    const amp = await writeSkill(tmp.dir, "a&b", "name: a-b\ndescription: Uses <tags> & it's fine");
    const escaped = await prompt(["a&b", "skills/special", "-f", "xml"]);
    expect(escaped.out).toContain(
      `    <location>${path.join(amp, "SKILL.md").replace("&", "&amp;")}</location>\n`,
    );
    expect(escaped.out).toContain("    <description>Uses &lt;tags&gt; &amp; it&#x27;s fine</description>\n");
    expect(escaped.out).toContain("    <name>r&amp;d&lt;x&gt;</name>\n");
    const raw = await prompt(["a&b", "--format", "agentskills"]);
    expect(raw.out).toContain(`<location>\n${path.join(amp, "SKILL.md")}\n</location>`);
  });

  it("renders the aworld and agentscope profiles' catalogs (AWorld's skills_guide, SkillBox's template)", async () => {
    const aworld = await prompt(["skills/plain", "--format", "aworld"]);
    expect(aworld.code).toBe(0);
    expect(aworld.out.startsWith("<skills_guide>\n  <skill_guide>\n")).toBe(true);
    expect(aworld.out).toContain(
      '  <skills_info>\n  <skill id="plain" active_status="False">\n    <skill_name>plain</skill_name>\n    <skill_desc>Plain skill.</skill_desc>\n  </skill>\n  </skills_info>\n</skills_guide>',
    );
    const skillbox = await prompt(["skills/plain", "-f", "skillbox"]);
    expect(skillbox.code).toBe(0);
    expect(skillbox.out.startsWith("## Available Skills\n\n<usage>\n")).toBe(true);
    // AgentSkillPromptProvider: metadata as indented XML, then `<skill-id>` (`name_source`).
    expect(skillbox.out).toMatch(
      /<skill>\n {2}<name>plain<\/name>\n {2}<description>Plain skill\.<\/description>\n {2}<skill-id>plain_filesystem-[^<]+<\/skill-id>\n<\/skill>/,
    );
  });

  it("folds multi-line descriptions onto one line except in agentskills", async () => {
    const list = await prompt(["links/multi"]);
    expect(list.out).toBe("Available skills:\n- multi: Line one Line two\n");
    const markdown = await prompt(["links/multi", "-f", "markdown"]);
    expect(markdown.out).toContain("- [○] **multi**: Line one Line two\n");
    const xml = await prompt(["links/multi", "-f", "xml"]);
    expect(xml.out).toContain("<description>Line one Line two</description>");
    const agentskills = await prompt(["links/multi", "-f", "agentskills"]);
    expect(agentskills.out).toContain("<description>\nLine one\nLine two\n</description>");
  });

  it("leaves hidden skills out of every format, from PATHs and from roots", async () => {
    for (const format of ["list", "agentskills", "xml", "markdown"]) {
      const fromPaths = await prompt(["skills/plain", "skills/hidden", "-f", format]);
      expect(fromPaths.out).toContain("plain");
      expect(fromPaths.out).not.toContain("hidden");
      const fromRoots = await prompt(["--root", "skills", "-f", format]);
      expect(fromRoots.out).toContain("plain");
      expect(fromRoots.out).not.toContain("hidden");
    }
  });

  it("prints nothing (and says so) when no skill is visible, except the empty agentskills element", async () => {
    for (const format of ["list", "xml", "markdown"]) {
      const empty = await prompt(["skills/hidden", "-f", format]);
      expect(empty.code).toBe(0);
      expect(empty.out).toBe("");
      expect(empty.err).toContain("No skills to show");
    }
    const agentskills = await prompt(["--root", "nowhere-empty", "--format", "agentskills"]);
    expect(agentskills.out).toBe("<available_skills>\n</available_skills>\n");
  });

  it("prints the same bytes for the same skills", async () => {
    const first = await prompt(["--root", "skills", "-f", "xml"]);
    const second = await prompt(["--root", "skills", "-f", "xml"]);
    expect(second.out).toBe(first.out);
  });

  it("aborts the whole output when one PATH cannot be read (exit 1)", async () => {
    await writeSkill(root, "broken", "description: no name here");
    const { code, out, err } = await prompt(["skills/plain", "skills/broken", "--format", "agentskills"]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toBe("skillrt prompt: skills/broken/SKILL.md: Missing required field in frontmatter: name\n");
    const missing = await prompt(["skills/none"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe("skillrt prompt: Path does not exist: skills/none\n");
    const notSkill = await prompt(["skills"]);
    expect(notSkill.err).toBe("skillrt prompt: SKILL.md not found in skills\n");
  });

  it("rejects an unknown format and a budget that is not a positive integer (exit 2)", async () => {
    const { code, err } = await prompt(["--format", "yaml"]);
    expect(code).toBe(2);
    expect(err).toContain("choose list, agentskills, xml, markdown, aworld, skillbox");
    const budget = await prompt(["--catalog-budget", "lots"]);
    expect(budget.code).toBe(2);
    expect(budget.err).toContain("--catalog-budget expects a positive integer, got 'lots'");
    expect((await prompt(["--context-window", "0"])).code).toBe(2);
  });

  it("fails for a missing --root (exit 1), naming it, and still prints the other roots' catalog", async () => {
    const missing = `skillrt prompt: Skill root ${path.join(tmp.dir, "nope")} does not exist. Create it or fix the path.\n`;
    const alone = await prompt(["--root", "nope"]);
    expect(alone.code).toBe(1);
    expect(alone.err.startsWith(missing)).toBe(true);
    const agentskills = await prompt(["--root", "nope", "--format", "agentskills"]);
    expect(agentskills.code).toBe(1);
    expect(agentskills.err).toBe(missing);
    const both = await prompt(["--root", "skills", "--root", "nope"]);
    expect(both.code).toBe(1);
    expect(both.err).toBe(missing);
    expect(both.out).toContain("- plain: Plain skill.");
  });

  it("marks active skills [✓] in markdown, as a session shows them at start", async () => {
    await writeSkill(root, "on", fm("on", "Active one.", "active: true"));
    const { code, out } = await prompt(["--root", "skills", "--format", "markdown"]);
    expect(code).toBe(0);
    expect(out).toContain("- [✓] **on**: Active one.");
    expect(out).toContain("- [○] **plain**: Plain skill.");
  });
});
