/**
 * One trial of an outcome eval: a fresh agent (so a fresh workspace) gets the case's prompt with its input
 * files staged, and what it did is kept — the answer, tokens, time, tool calls, the skills it loaded, the
 * transcript — with a copy of the files its workspace left (`out/`, `work/` but the staged inputs).
 */
import { constants } from "node:fs";
import { mkdir, open, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ModelMessage } from "ai";
import type { SkillAgent } from "../engine/skill-agent.js";
import type { OutcomeCase } from "./outcome-cases.js";

/** What the agent did in one trial. */
export interface TrialRun {
  answer: string;
  tokens: { input: number; output: number; total: number };
  durationMs: number;
  /** Tool calls, in all, and per tool name. */
  toolCalls: number;
  tools: Record<string, number>;
  steps: number;
  /** Skills loaded during the trial (by the model, the pre-pass or a mention), in order. */
  loaded: string[];
  /** The conversation the turn added (user message, assistant and tool messages). */
  transcript: ModelMessage[];
  /** Why the trial did not complete (a provider failure); such a trial does not pass. */
  error?: string;
  /** A limit that stopped the turn (steps, output, deadline); the trial is still graded. */
  limit?: string;
}

/** A file the trial left, copied into its results. */
export interface TrialFile {
  path: string;
  bytes: number;
}

/** Largest file copied out of a trial's workspace, and most bytes in all. */
const FILE_CAP = 10 * 1024 * 1024;
const TOTAL_CAP = 50 * 1024 * 1024;

/**
 * Runs `evalCase` once on a new agent from `createAgent`, copies what its workspace left into `filesDir`,
 * and closes the agent (which removes the workspace).
 */
export async function runAgentTrial(options: {
  createAgent: () => Promise<SkillAgent>;
  evalCase: OutcomeCase;
  /** The skill folder the case's `files` are relative to. */
  skillDir: string;
  filesDir: string;
  abortSignal?: AbortSignal;
}): Promise<{ run: TrialRun; files: TrialFile[] }> {
  let agent: SkillAgent;
  try {
    agent = await options.createAgent();
  } catch (error) {
    // The agent could not be made (an executor that will not start, a store): a trial that did not run.
    return {
      run: {
        answer: "",
        tokens: { input: 0, output: 0, total: 0 },
        durationMs: 0,
        toolCalls: 0,
        tools: {},
        steps: 0,
        loaded: [],
        transcript: [],
        error: `the agent could not be started: ${error instanceof Error ? error.message : String(error)}`,
      },
      files: [],
    };
  }
  const loaded: string[] = [];
  const unsubscribe = agent.subscribe((event) => {
    if (event.type === "skill-load" && !loaded.includes(event.name)) loaded.push(event.name);
  });
  const started = performance.now();
  let run: TrialRun;
  try {
    const files = options.evalCase.files.map((file) => path.resolve(options.skillDir, file));
    const tools: Record<string, number> = {};
    const tokens = { input: 0, output: 0, total: 0 };
    const transcript: ModelMessage[] = [];
    let answer = "";
    let toolCalls = 0;
    let steps = 0;
    let limit: string | undefined;
    let aborted = false;
    // The prompt, then the follow-up turns, in one conversation; the answer is the last turn's.
    for (const [i, message] of [options.evalCase.prompt, ...options.evalCase.turns].entries()) {
      const result = await agent.send(message, {
        ...(i > 0 || files.length === 0 ? {} : { files }),
        ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      });
      for (const call of result.toolCalls) tools[call.toolName] = (tools[call.toolName] ?? 0) + 1;
      tokens.input += result.usage.inputTokens;
      tokens.output += result.usage.outputTokens;
      tokens.total += result.usage.totalTokens;
      transcript.push(...result.messages);
      answer = result.text;
      toolCalls += result.toolCalls.length;
      steps += result.steps;
      limit ??=
        result.limitReached?.message ?? (result.stepLimitReached ? "the step limit was reached" : undefined);
      if (result.aborted) {
        aborted = true;
        break;
      }
    }
    run = {
      answer,
      tokens,
      durationMs: Math.round(performance.now() - started),
      toolCalls,
      tools,
      steps,
      loaded,
      transcript,
      ...(aborted ? { error: "the trial was cancelled" } : {}),
      ...(limit === undefined ? {} : { limit }),
    };
  } catch (error) {
    run = {
      answer: "",
      tokens: { input: 0, output: 0, total: 0 },
      durationMs: Math.round(performance.now() - started),
      toolCalls: 0,
      tools: {},
      steps: 0,
      loaded,
      transcript: [...agent.history()],
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    unsubscribe();
  }
  try {
    const workspace = agent.workspace;
    const files: TrialFile[] = [];
    await mkdir(options.filesDir, { recursive: true });
    if (workspace !== undefined) {
      const budget = { left: TOTAL_CAP };
      await copyRegularFiles(workspace.outDir, options.filesDir, "out", files, budget, new Set());
      await copyRegularFiles(
        workspace.workDir,
        options.filesDir,
        "work",
        files,
        budget,
        new Set([workspace.inputsDir]),
      );
    }
    return { run, files };
  } finally {
    await agent.close();
  }
}

/**
 * Copies the regular files under `from` to `<to>/<rel>`: symbolic links (which a script in the workspace
 * could point anywhere) and other special files are skipped, and each file is opened without following a
 * link, so nothing outside the workspace is read.
 */
async function copyRegularFiles(
  from: string,
  to: string,
  rel: string,
  files: TrialFile[],
  budget: { left: number },
  skip: ReadonlySet<string>,
): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const source = path.join(from, entry.name);
    const relPath = `${rel}/${entry.name}`;
    if (skip.has(source)) continue;
    if (entry.isDirectory()) {
      await copyRegularFiles(source, to, relPath, files, budget, skip);
      continue;
    }
    if (!entry.isFile()) continue;
    let handle: import("node:fs/promises").FileHandle;
    try {
      handle = await open(source, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      continue;
    }
    try {
      const size = (await handle.stat()).size;
      if (size > FILE_CAP || size > budget.left) continue;
      budget.left -= size;
      const data = await handle.readFile();
      const target = path.join(to, relPath);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, data);
      files.push({ path: relPath, bytes: data.length });
    } finally {
      await handle.close();
    }
  }
}
