import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkillAgent } from "../engine/create-skill-agent.js";
import { readTurnLog } from "../inspect/turn-record.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { fromEnvironment } from "./from-environment.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-env-recording-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("fromEnvironment: turn recording", () => {
  it("an agent built from the preset's parts records its turns in the store, secrets redacted", async () => {
    const cwd = path.join(dir, "project");
    const home = path.join(dir, "home");
    await mkdir(cwd, { recursive: true });
    await mkdir(home, { recursive: true });
    const secret = "sk-preset-recording-secret";
    const parts = await fromEnvironment({
      cwd,
      env: { HOME: home, OPENAI_API_KEY: secret },
      model: false,
      tools: false,
      executor: false,
      cache: false,
    });
    expect(parts.store).toBeDefined();
    const agent = await createSkillAgent({
      ...parts,
      model: scriptedModel([{ text: `the key is ${secret}` }, { error: new Error(`refused ${secret}`) }]),
    });
    const { store } = parts;
    try {
      await agent.send("hi");
      await expect(agent.send("again")).rejects.toThrow();
      const log = await readTurnLog(store!, agent.sessionId);
      expect(log.turns.map((t) => [t.userText, t.error?.includes("refused [redacted]")])).toEqual([
        ["hi", undefined],
        ["again", true],
      ]);
      expect(JSON.stringify(log.turns)).not.toContain(secret);
    } finally {
      await agent.close();
    }
  });

  it("without a store there is no recorder", async () => {
    const parts = await fromEnvironment({
      cwd: dir,
      env: { HOME: dir },
      model: false,
      store: false,
      tools: false,
      executor: false,
      cache: false,
    });
    await parts.close();
    expect(parts.onEvent).toBeUndefined();
  });
});
