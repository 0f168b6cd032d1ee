/**
 * The `omni` profile end to end: a real catalog in a temp dir, `createSkillAgent` with the real bubblewrap
 * sandbox and a scripted model; asserts OmniEmployee's exact texts (`list_skills`, the
 * `get_full_instructions` rendering of a load, `run_command`'s `$ cmd` output) and its auto-unload rule.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillTree } from "../../context/__fixtures__/skill-tree.js";
import { createSkillAgent } from "../../engine/create-skill-agent.js";
import type { EngineEvent } from "../../engine/engine-event.js";
import { probeSandbox } from "../../exec/sandbox-executor.js";
import { type ScriptedStep, scriptedModel, systemOf } from "../../test-kit.js";

const probe = probeSandbox();
let tree: SkillTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/** The weather fixture as `Skill.get_full_instructions` renders it, up to its instructions. */
const weatherInstructions = (dir: string): string[] => [
  "# Skill: weather",
  "",
  "Forecasts for a city.",
  "",
  "**When to use**: The user asks about the weather",
  "",
  "## Skill Context",
  `- **Skill Directory**: \`${dir}\``,
  "- **Available Scripts**:",
  `  - \`${dir}/scripts/forecast.py\` (run with: \`uv run ${dir}/scripts/forecast.py\`)`,
  "",
  "## Instructions",
  "Run the forecast script.",
];

const call = (name: string, input: unknown) => ({ toolCalls: [{ name, input: JSON.stringify(input) }] });

describe.skipIf(!probe.ok)("omni profile end to end (OmniEmployee, sandboxed run_command)", () => {
  it("list_skills(verbose), the # Skill: rendering of a load, run_command's $ cmd output, auto-unload after 10 messages", async () => {
    tree = await makeSkillTree([
      {
        name: "weather",
        description: "Forecasts for a city.",
        frontmatter: { when_to_use: "The user asks about the weather" },
        body: "Run the forecast script.",
        files: {
          "scripts/forecast.py": "print('sunny')\n",
          "references/api.md": "# API\n",
          "guide.md": "Read the guide.",
        },
      },
      { name: "notes", description: "Take notes." },
    ]);
    const dir = path.join(tree.root, "skills", "weather");
    const model = scriptedModel([
      call("list_skills", { verbose: true }),
      call("load_skill", { skill_name: "weather" }),
      call("run_command", { command: "echo hello; echo oops >&2" }),
      call("run_command", { command: "true" }),
      call("run_command", { command: "pwd", working_dir: "missing" }),
      call("run_command", { command: 'echo "$GREETING"', env: { GREETING: "hi" } }),
      call("run_command", { command: "exit 3" }),
      call("run_command", { command: "echo one" }),
      call("run_command", { command: "echo two" }),
      { text: "done" },
    ]);
    const agent = await createSkillAgent({
      model,
      catalog: tree.catalog,
      cwd: tree.root,
      profile: "omni",
      executor: "sandbox",
      maxSteps: 20,
    });
    try {
      const turn = agent.send("what is the weather in Paris?");
      const events: EngineEvent[] = [];
      for await (const event of turn) events.push(event);
      const result = await turn;
      expect(result.text).toBe("done");
      const out = result.toolCalls.map((c) => String(c.output));
      // registry.get_skills_summary with SkillMetadata.to_detailed_summary.
      expect(out[0]).toBe(
        "[○] **notes**: Take notes.\n[○] **weather**: Forecasts for a city.\n  - When to use: The user asks about the weather\n  - References: references/api.md",
      );
      // Skill.get_full_instructions. With an executor, the folder it names is the skill's folder as
      // run_command sees it in the sandbox (the workspace's skills/weather), not the host folder.
      const view = out[1]?.match(/- \*\*Skill Directory\*\*: `([^`]+)`/)?.[1] ?? "";
      expect(view).toMatch(/\/skillrt-ws-[^/]+\/skills\/weather$/);
      expect(view).not.toBe(dir);
      expect(out[1]).toBe(
        [
          "Skill 'weather' loaded successfully. Available references: ['references/api.md']",
          "Currently loaded skills: ['weather']",
          "",
          ...weatherInstructions(view),
          "",
          "## guide",
          "Read the guide.",
          "",
          "## Available References (Load on Demand)",
          "The following reference files contain additional information. Load them using `load_skill_reference` when needed:",
          "- `references/api.md`",
          "",
          "**When to load references:**",
          "- Encountering errors (e.g., unknown city, invalid date)",
          "- Need detailed examples or conversation flows",
          "- Need script usage documentation",
          "- User asks for more options or alternatives",
        ].join("\n"),
      );
      // RunCommandTool: `$ cmd`, a blank line, stdout, `[stderr]`, or `(no output)`.
      expect(out[2]).toBe("$ echo hello; echo oops >&2\n\nhello\n[stderr]\noops");
      expect(out[3]).toBe("$ true\n\n(no output)");
      expect(out[4]).toMatch(/^Working directory does not exist: \/.*\/work\/missing$/);
      expect(out[5]).toBe('$ echo "$GREETING"\n\nhi');
      expect(out[6]).toBe("$ exit 3\n\n(no output)\nCommand exited with code 3");
      expect(result.toolCalls[6]?.isError).toBe(true);
      // ContextManager's heuristic: no message of the last 10 names the skill any more → unloaded.
      const unloads = events.filter((e) => e.type === "skill-unload");
      expect(unloads).toHaveLength(1);
      expect(unloads[0]).toMatchObject({ name: "weather" });
      // Decided before the 8th request (1 user + 7 × (call, result) = 15 messages, and the last 10 start
      // after the load's call and result): the 7th still carries the loaded instructions (its last 10
      // messages hold the load), the 8th has the unloaded skill's stub.
      expect(JSON.stringify(model.calls[6]?.prompt)).toContain("## Skill Context");
      expect(JSON.stringify(model.calls[7]?.prompt)).not.toContain("## Skill Context");
      expect(JSON.stringify(model.calls[7]?.prompt)).toContain(
        "[Skill 'weather' was removed from the context",
      );
    } finally {
      await agent.close();
    }
  });
});

describe.skipIf(!probe.ok)(
  "omni profile: OmniEmployee's own parameter names, and hints run_command can follow",
  () => {
    it("load_skill(name), load_skill_reference(skill_name, ref_path), unload_skill(name); the uv run path runs in the sandbox", async () => {
      tree = await makeSkillTree([
        {
          name: "weather",
          description: "Forecasts for a city.",
          body: "Run the forecast script.",
          files: { "scripts/forecast.py": "print('sunny')\n", "reference.md": "# Cities\nParis\n" },
        },
        { name: "notes", description: "Take notes.", files: { "scripts/note.py": "print('noted')\n" } },
      ]);
      const steps: ScriptedStep[] = [
        call("load_skill", { name: "weather" }),
        call("load_skill", { name: "notes" }),
        call("load_skill_reference", { skill_name: "weather", ref_path: "reference.md" }),
        { text: "next" },
      ];
      const model = scriptedModel(steps);
      const agent = await createSkillAgent({
        model,
        catalog: tree.catalog,
        cwd: tree.root,
        profile: "omni",
        executor: "sandbox",
      });
      try {
        const first = await agent.send("weather in Paris?");
        const out = first.toolCalls.map((c) => String(c.output));
        expect(first.toolCalls.map((c) => c.isError === true)).toEqual([false, false, false]);
        expect(out[0]).toContain("Skill 'weather' loaded successfully.");
        expect(out[2]).toMatch(/^Reference 'reference\.md' loaded:\n\n[\s\S]*# Cities\nParis/);
        // The schemas the model sees carry Omni's names (loop.py), not skillrt's earlier ones.
        const tools = (model.calls[0]?.tools ?? []) as Array<{
          name: string;
          inputSchema?: { properties?: object };
        }>;
        const params = (name: string): string[] =>
          Object.keys(tools.find((t) => t.name === name)?.inputSchema?.properties ?? {});
        expect(params("load_skill")).toEqual(["name"]);
        expect(params("unload_skill")).toEqual(["name"]);
        expect(params("load_skill_reference")).toEqual(["skill_name", "ref_path"]);
        // The hint names the skill's folder where run_command sees it (not the host folder, not mounted).
        const hint = out[0]?.match(/\(run with: `uv run (\S+forecast\.py)`\)/)?.[1];
        expect(hint).toBeDefined();
        expect(hint).not.toContain(path.join(tree.root, "skills"));
        expect(out[0]).toContain(`- **Skill Directory**: \`${path.dirname(path.dirname(hint!))}\``);
        // uv is not installed here: the same path through python3. "notes" was loaded last; the command
        // names weather's folder, so weather's folder is the one mounted.
        steps.push(
          call("run_command", { command: `python3 ${hint}` }),
          call("unload_skill", { name: "weather" }),
          call("unload_skill", { skill_name: "notes" }),
          { text: "done" },
        );
        const second = await agent.send("run it");
        const next = second.toolCalls.map((c) => String(c.output));
        expect(next[0]).toBe(`$ python3 ${hint}\n\nsunny`);
        expect(next[1]).toMatch(
          /^Skill 'weather' unloaded successfully\.\nCurrently loaded skills: \['notes'\]/,
        );
        // The earlier name is still understood.
        expect(next[2]).toMatch(/^Skill 'notes' unloaded successfully\./);
      } finally {
        await agent.close();
      }
    });
  },
);

describe("omni profile, system placement (OmniEmployee's context manager)", () => {
  it("a loaded skill and reference are sections of the system prompt; the tool results only say so", async () => {
    tree = await makeSkillTree([
      {
        name: "weather",
        description: "Forecasts for a city.",
        frontmatter: { when_to_use: "The user asks about the weather" },
        body: "Run the forecast script.",
        files: { "scripts/forecast.py": "print('sunny')\n", "references/api.md": "# API\nGET /forecast\n" },
      },
      { name: "notes", description: "Take notes." },
    ]);
    const dir = path.join(tree.root, "skills", "weather");
    const model = scriptedModel([
      call("load_skill", { skill_name: "weather" }),
      call("load_skill_reference", { skill_name: "weather", reference: "references/api.md" }),
      { text: "Sunny." },
    ]);
    const agent = await createSkillAgent({
      model,
      catalog: tree.catalog,
      profile: "omni",
      placement: "system",
      executor: false,
    });
    try {
      const result = await agent.send("weather in Paris?");
      expect(result.text).toBe("Sunny.");
      expect(String(result.toolCalls[0]?.output)).toBe(
        "Skill 'weather' loaded successfully. Available references: ['references/api.md']\nCurrently loaded skills: ['weather']",
      );
      const system = (n: number): string => {
        const prompt = (model.calls[n]?.prompt ?? []) as Array<{ role: string; content: unknown }>;
        const first = prompt[0];
        return first?.role === "system" ? String(first.content) : "";
      };
      expect(system(0)).toContain(
        "## Available Skills (use when needed)\n\n- [○] **notes**: Take notes.\n- [○] **weather**",
      );
      expect(system(0)).not.toContain("Loaded Skill Instructions");
      // Seed 003 (OmniEmployee's skills doc): "### Skill: book-flight\n# Skill: book-flight\n\n<description>\n\n
      // ## Skill Context\n- **Skill Directory**: …\n- **Available Scripts**:\n  - `…` (run with: `uv run …`)".
      expect(system(1)).toContain("- [✓] **weather**: Forecasts for a city.");
      expect(system(1)).toContain(
        ["## Loaded Skill Instructions", "", "### Skill: weather", ...weatherInstructions(dir)].join("\n"),
      );
      // "## Loaded Skill References\n\n### book-flight - reference.md\n# Flight Booking Reference".
      expect(system(2)).toContain(
        "## Loaded Skill References\n\n### weather - references/api.md\n# API\nGET /forecast\n",
      );
    } finally {
      await agent.close();
    }
  });
});

describe.skipIf(!probe.ok)("omni profile, system placement with an executor", () => {
  it("the system prompt's uv run hint names the folder run_command sees, and runs there", async () => {
    tree = await makeSkillTree([
      {
        name: "weather",
        description: "Forecasts for a city.",
        body: "Run the forecast script.",
        files: { "scripts/forecast.py": "print('sunny')\n" },
      },
    ]);
    const steps: ScriptedStep[] = [call("load_skill", { name: "weather" }), { text: "loaded" }];
    const model = scriptedModel(steps);
    const agent = await createSkillAgent({
      model,
      catalog: tree.catalog,
      cwd: tree.root,
      profile: "omni",
      placement: "system",
      executor: "sandbox",
    });
    try {
      await agent.send("weather?");
      const system = systemOf(model.calls[1]!);
      const hint = system.match(/\(run with: `uv run (\S+forecast\.py)`\)/)?.[1];
      expect(hint).toMatch(/\/skillrt-ws-[^/]+\/skills\/weather\/scripts\/forecast\.py$/);
      expect(system).not.toContain(path.join(tree.root, "skills", "weather", "scripts"));
      steps.push(call("run_command", { command: `python3 ${hint}` }), { text: "done" });
      const run = await agent.send("run it");
      expect(String(run.toolCalls[0]?.output)).toBe(`$ python3 ${hint}\n\nsunny`);
    } finally {
      await agent.close();
    }
  });
});
