/**
 * The `agentscope` profile end to end: a real catalog in a temp dir, `createSkillAgent` with the real
 * bubblewrap sandbox, and a scripted model; asserts SkillBox's exact texts (AgentSkillPromptProvider's
 * metadata XML, `<files-root>`, the per-skill code-execution block, ShellCommandTool's result tags).
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillTree } from "../../context/__fixtures__/skill-tree.js";
import { createSkillAgent } from "../../engine/create-skill-agent.js";
import { probeSandbox } from "../../exec/sandbox-executor.js";
import { scriptedModel, systemOf, toolNamesOf } from "../../test-kit.js";

const probe = probeSandbox();
let tree: SkillTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

async function csvTree(): Promise<SkillTree> {
  return makeSkillTree([
    {
      name: "data-analysis",
      description: "Analyse CSV files & report <stats>.",
      frontmatter: {
        metadata: '\n  author: Ann\n  version: "2"',
        tags: "[csv, stats]",
        "x y": "odd key",
        limits: "\n  rows:\n    max: 100",
      },
      files: { "scripts/analyze.py": "import sys\nprint('rows=3')\nprint('warn', file=sys.stderr)\n" },
    },
  ]);
}

describe.skipIf(!probe.ok)("agentscope profile end to end (SkillBox, sandboxed shell)", () => {
  it("ids name_source, every frontmatter field as XML, <files-root>, the code-execution block, load by id, execute_shell_command", async () => {
    tree = await csvTree();
    const source = `filesystem-${path.basename(tree.root)}_skills`;
    const id = `data-analysis_${source}`;
    const dir = path.join(tree.root, "skills", "data-analysis");
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "load_skill_through_path", input: JSON.stringify({ skillId: id, path: "SKILL.md" }) },
        ],
      },
      {
        toolCalls: [
          {
            name: "execute_shell_command",
            input: JSON.stringify({ command: `python3 ${dir}/scripts/analyze.py` }),
          },
          { name: "execute_shell_command", input: JSON.stringify({ command: "ls /" }) },
          { name: "execute_shell_command", input: JSON.stringify({ command: "python3 -V; rm -rf ~" }) },
        ],
      },
      { text: "3 rows." },
    ]);
    const agent = await createSkillAgent({
      model,
      catalog: tree.catalog,
      cwd: tree.root,
      profile: "agentscope",
      executor: "sandbox",
    });
    try {
      const result = await agent.send("analyse data.csv");
      expect(result.text).toBe("3 rows.");
      const system = systemOf(model.calls[0]!);
      // AgentSkillPromptProvider.appendSkill with exposeAllMetadata (the default): two spaces per level,
      // nested maps nested, lists as <item>, an invalid tag name as <entry key>, values escaped.
      expect(system).toContain(
        [
          "<skill>",
          "  <name>data-analysis</name>",
          "  <description>Analyse CSV files &amp; report &lt;stats&gt;.</description>",
          "  <metadata>",
          "    <author>Ann</author>",
          "    <version>2</version>",
          "  </metadata>",
          "  <tags>",
          "    <item>csv</item>",
          "    <item>stats</item>",
          "  </tags>",
          '  <entry key="x y">odd key</entry>',
          "  <limits>",
          "    <rows>",
          "      <max>100</max>",
          "    </rows>",
          "  </limits>",
          `  <skill-id>${id}</skill-id>`,
          `  <files-root>${dir}</files-root>`,
          "</skill>",
          "",
          "</available_skills>",
          "",
          "## Code Execution",
          "",
          "<code_execution>",
          "You have access to the execute_shell_command tool. Each skill in <available_skills>",
          "includes a <files-root> element giving the absolute path to that skill's files.",
        ].join("\n"),
      );
      expect(system).toContain("3. Run scripts:       python3 <files-root>/scripts/<script-name>\n");
      expect(toolNamesOf(model.calls[0]!)).toEqual(
        expect.arrayContaining(["load_skill_through_path", "execute_shell_command"]),
      );
      const outputs = result.toolCalls.map((c) => String(c.output));
      expect(outputs[0]).toMatch(
        new RegExp(
          `^Successfully loaded skill: ${id}\\n\\nName: data-analysis\\nDescription: .*\\nSource: ${source}\\n`,
        ),
      );
      // ShellCommandTool.formatResult: the streams without their last newline, in the sandbox.
      expect(outputs[1]).toBe("<returncode>0</returncode><stdout>rows=3</stdout><stderr>warn</stderr>");
      expect(outputs[2]).toBe(
        "<returncode>-1</returncode><stdout></stdout><stderr>SecurityError: Command 'ls' is not in the allowed list: python, python3, node, nodejs.</stderr>",
      );
      expect(outputs[3]).toMatch(/^<returncode>-1<\/returncode><stdout><\/stdout><stderr>SecurityError: /);
    } finally {
      await agent.close();
    }
  });
});

describe("agentscope profile prompt (no executor)", () => {
  it("tells the model to load by skill id, and renders nested metadata maps and lists as XML", async () => {
    tree = await makeSkillTree([
      {
        name: "report",
        description: "Writes reports.",
        frontmatter: {
          metadata: "\n  owner:\n    team: data\n    contact: ann\n  tags:\n    - a\n    - b\n  level: basic",
        },
      },
    ]);
    const model = scriptedModel([{ text: "ok" }]);
    const agent = await createSkillAgent({ model, catalog: tree.catalog, profile: "agentscope" });
    try {
      await agent.send("hi");
      const system = systemOf(model.calls[0]!);
      expect(system).toContain(
        '- When a task matches a skill, call load_skill_through_path with its skill id (the <skill-id> of its entry) and path "SKILL.md" first',
      );
      expect(system).not.toContain("with its name first");
      expect(system).toContain(
        [
          "  <metadata>",
          "    <owner>",
          "      <team>data</team>",
          "      <contact>ann</contact>",
          "    </owner>",
          "    <tags>",
          "      <item>a</item>",
          "      <item>b</item>",
          "    </tags>",
          "    <level>basic</level>",
          "  </metadata>",
        ].join("\n"),
      );
      expect(system).not.toContain("{'team'");
    } finally {
      await agent.close();
    }
  });
});
