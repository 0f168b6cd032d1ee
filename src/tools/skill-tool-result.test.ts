import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { stepCountIs, streamText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { makeSkillTree, type SkillTree, standardSkills } from "../context/__fixtures__/skill-tree.js";
import { createSkillSession } from "../context/create-skill-session.js";
import { createFsArtifactStore } from "../exec/artifact-store.js";
import { createWorkspace } from "../exec/create-workspace.js";
import { createLocalExecutor } from "../exec/local-executor.js";
import type { Workspace } from "../exec/workspace.js";
import { scriptedModel } from "../test-kit.js";
import { callToolResult } from "./__fixtures__/call-tool.js";
import { createSkillTools } from "./create-skill-tools.js";
import { capToolCallInputs, MAX_TOOL_INPUT_BYTES } from "./guard-tool-input.js";
import { SkillRunOutput } from "./skill-run-output-schema.js";

let tree: SkillTree | undefined;
let workspace: Workspace | undefined;
let artifacts: string | undefined;
afterEach(async () => {
  await tree?.cleanup();
  await workspace?.dispose();
  if (artifacts !== undefined) await fs.rm(artifacts, { recursive: true, force: true });
  tree = workspace = artifacts = undefined;
});

async function setup(options: { maxInputBytes?: number } = {}) {
  tree = await makeSkillTree(standardSkills());
  workspace = await createWorkspace();
  artifacts = await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-artifacts-"));
  const session = createSkillSession({ catalog: tree.catalog, id: "s" });
  const skills = createSkillTools(session, {
    run: {
      environment: {
        workspace,
        executor: createLocalExecutor(),
        artifactStore: createFsArtifactStore(artifacts),
      },
    },
    ...options,
  });
  return { session, skills };
}

describe("structured tool results", () => {
  it("skill_run returns the run as data (trpc's shape) next to the text the model reads", async () => {
    const { skills } = await setup();
    const result = await callToolResult(skills.tools, "skill_run", {
      name: "pdf",
      command:
        "mkdir -p $OUTPUT_DIR && echo report > $OUTPUT_DIR/r.txt && echo out && echo err >&2 && exit 3",
      outputs: { globs: ["$OUTPUT_DIR/*.txt"], inline: true, save: true },
    });
    expect(result.isError).toBe(false); // the command ran; its exit code says how it went
    const run = SkillRunOutput.parse(result.run);
    expect(run).toMatchObject({
      skill: "pdf",
      exit_code: 3,
      stdout: "out\n",
      stderr: "err\n",
      timed_out: false,
      aborted: false,
      executor: "local",
    });
    expect(run.duration_ms).toBeGreaterThanOrEqual(0);
    expect(run.output_files).toEqual([
      expect.objectContaining({
        name: "out/r.txt",
        content: "report\n",
        mime_type: "text/plain",
        size_bytes: 7,
      }),
    ]);
    expect(run.artifact_files).toEqual([{ name: "out/r.txt", version: 1, ref: "artifact://out/r.txt@1" }]);
    expect(run.output_files[0]?.artifact).toBe("artifact://out/r.txt@1");
    expect(result.text).toMatch(
      /exit code: 3[\s\S]*stdout:\n```\nout\n```[\s\S]*saved as artifact:\/\/out\/r.txt@1/,
    );
  });

  it("a refused run or a failed disclosure is an error result without run data", async () => {
    const { skills } = await setup();
    const refused = await callToolResult(skills.tools, "skill_run", { name: "pdff", command: "true" });
    expect(refused).toEqual({ text: expect.stringContaining("Did you mean: pdf"), isError: true });
    const escaped = await callToolResult(skills.tools, "skill_run", {
      name: "pdf",
      command: "pwd",
      cwd: "/etc",
    });
    expect(escaped.isError).toBe(true);
    expect(await callToolResult(skills.tools, "skill_load", { name: "nope" })).toMatchObject({
      isError: true,
    });
    expect(await callToolResult(skills.tools, "skill_load", { name: "pdf" })).toMatchObject({
      isError: false,
    });
    expect(await callToolResult(skills.tools, "skill_search", { query: "zzzz" })).toMatchObject({
      isError: false,
    });
  });

  it("the model reads the text, as an error result when the call failed", async () => {
    const { skills } = await setup();
    const model = scriptedModel([
      {
        toolCalls: [
          { id: "a", name: "skill_load", input: '{"name":"pdf"}' },
          { id: "b", name: "skill_load", input: '{"name":"nope"}' },
        ],
      },
      { text: "done" },
    ]);
    const result = streamText({ model, tools: skills.tools, prompt: "go", stopWhen: stepCountIs(3) });
    await result.consumeStream();
    const toolMessage = model.calls[1]?.prompt.find((m) => m.role === "tool");
    const outputs = toolMessage?.role === "tool" ? toolMessage.content : [];
    expect(outputs).toEqual([
      expect.objectContaining({
        toolCallId: "a",
        output: { type: "text", value: expect.stringMatching(/^<skill_content name="pdf">/) },
      }),
      expect.objectContaining({
        toolCallId: "b",
        output: { type: "error-text", value: expect.stringContaining("Skill 'nope' not found") },
      }),
    ]);
  });

  it("says which tools only disclose and which run commands", async () => {
    const { skills } = await setup();
    expect(skills.effects("skill_load")).toEqual({ readOnly: true, destructive: false, openWorld: false });
    expect(skills.effects("skill_search")).toMatchObject({ readOnly: true });
    expect(skills.effects("skill_run")).toEqual({ readOnly: false, destructive: true, openWorld: true });
    expect(skills.effects("nope")).toBeUndefined();
  });
});

describe("tool-argument cap", () => {
  it("refuses an oversized call with a message for the model and runs nothing", async () => {
    const { skills } = await setup({ maxInputBytes: 64 * 1024 });
    const before = await fs.readdir(path.join(workspace!.root, "runs")).catch(() => []);
    const result = await callToolResult(skills.tools, "skill_run", {
      name: "pdf",
      command: "cat > /dev/null",
      stdin: "x".repeat(100 * 1024),
    });
    expect(result.isError).toBe(true);
    expect(result.run).toBeUndefined();
    expect(result.text).toMatch(
      /arguments of skill_run were 101 KiB, over the 64 KiB limit; the call was not run/,
    );
    expect(await fs.readdir(path.join(workspace!.root, "runs")).catch(() => [])).toEqual(before);
    const load = await callToolResult(skills.tools, "skill_load", {
      name: "pdf",
      args: "y".repeat(70 * 1024),
    });
    expect(load).toMatchObject({ isError: true });
    expect(await callToolResult(skills.tools, "skill_load", { name: "pdf" })).toMatchObject({
      isError: false,
    });
  });

  it("keeps oversized arguments out of the history (nothing stored, nothing re-sent)", () => {
    const big = "z".repeat(MAX_TOOL_INPUT_BYTES + 1);
    const messages = [
      { role: "user" as const, content: "go" },
      {
        role: "assistant" as const,
        content: [
          {
            type: "tool-call" as const,
            toolCallId: "a",
            toolName: "skill_run",
            input: { name: "pdf", stdin: big },
          },
          { type: "tool-call" as const, toolCallId: "b", toolName: "skill_load", input: { name: "pdf" } },
        ],
      },
    ];
    const capped = capToolCallInputs(messages);
    expect(JSON.stringify(capped).length).toBeLessThan(1000);
    const parts =
      capped[1]?.role === "assistant" && Array.isArray(capped[1].content) ? capped[1].content : [];
    expect(parts[0]).toMatchObject({ toolCallId: "a", input: { omitted: expect.stringMatching(/dropped/) } });
    expect(parts[1]).toMatchObject({ toolCallId: "b", input: { name: "pdf" } });
    const small = [{ role: "user" as const, content: "hi" }];
    expect(capToolCallInputs(small)).toBe(small);
  });
});
