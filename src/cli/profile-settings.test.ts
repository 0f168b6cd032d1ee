/**
 * The profile settings (`loadMode`, `maxOverviewSkills`, `maxLoadedSkills`, `skillTools`, the preamble
 * switch) from the config file's `session` section and from `ask`'s flags, in-process against a loopback
 * provider: what the model is sent shows them applied.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LoopbackProvider, startLoopbackProvider } from "../testing/start-loopback-provider.js";
import { captureIo } from "./__fixtures__/capture-io.js";
import { fm, makeTempDir, writeSkill } from "./__fixtures__/skill-tree.js";
import { main } from "./main.js";

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

let tmp: { dir: string; cleanup: () => Promise<void> };
let provider: LoopbackProvider<ChatBody>;
beforeEach(async () => {
  tmp = await makeTempDir("skillrt-profile-settings-");
  const root = path.join(tmp.dir, "skills");
  await writeSkill(root, "alpha", fm("alpha", "Alpha tasks."));
  await writeSkill(root, "beta", fm("beta", "Beta tasks."));
  await writeSkill(root, "gamma", fm("gamma", "Gamma tasks."));
  provider = await startLoopbackProvider<ChatBody>("openai", []);
});
afterEach(async () => {
  await provider.close();
  await tmp.cleanup();
});

async function ask(args: string[]): Promise<{ code: number; err: string; body: ChatBody | undefined }> {
  provider.script.push({ text: "ok" });
  const before = provider.requests.length;
  const io = captureIo({
    cwd: tmp.dir,
    env: {
      HOME: tmp.dir,
      NO_COLOR: "1",
      OPENAI_BASE_URL: provider.baseURL,
      OPENAI_API_KEY: "sk-loopback",
      AGENT_MODEL: "loopback-model",
      SKILLRT_CACHE: "0",
    },
  });
  const code = await main(
    ["ask", "--root", "skills", "--executor", "local", "--profile", "trpc", ...args, "hello"],
    io,
  );
  return { code, err: io.err(), body: provider.requests[before]?.body };
}

const systemText = (body: ChatBody | undefined): string =>
  String(body?.messages.find((m) => m.role === "system")?.content ?? "");
const toolNames = (body: ChatBody | undefined): string[] => (body?.tools ?? []).map((t) => t.function.name);

describe("profile settings from the config file and the flags", () => {
  it("session.maxOverviewSkills, session.preamble: false and session.skillTools apply; flags win", async () => {
    const defaults = await ask([]);
    expect(defaults.code, defaults.err).toBe(0);
    expect(systemText(defaults.body)).toContain("Available skills:\n");
    expect(systemText(defaults.body)).toContain("Tooling and workspace guidance:");
    expect(toolNames(defaults.body)).toEqual(
      expect.arrayContaining(["skill_load", "skill_run", "skill_list_docs"]),
    );

    await fs.writeFile(
      path.join(tmp.dir, "skillrt.config.json"),
      JSON.stringify({
        session: {
          maxOverviewSkills: 1,
          preamble: false,
          skillTools: ["skill_load", "skill_run"],
          loadMode: "once",
        },
      }),
    );
    const configured = await ask([]);
    expect(configured.code, configured.err).toBe(0);
    const system = systemText(configured.body);
    expect(system).toContain("Available skills: (showing 1 of 3; remaining names listed below)");
    expect(system).toMatch(/Additional skills \(use skill_load by name to access\): \w+, \w+/);
    expect(system).not.toContain("Tooling and workspace guidance:");
    expect(toolNames(configured.body)).toContain("skill_load");
    expect(toolNames(configured.body)).not.toContain("skill_list_docs");
    expect(toolNames(configured.body)).not.toContain("skill_select_docs");

    const flagged = await ask(["--max-overview-skills", "2", "--skill-tools", "skill_load,skill_list_docs"]);
    expect(flagged.code, flagged.err).toBe(0);
    expect(systemText(flagged.body)).toContain(
      "Available skills: (showing 2 of 3; remaining names listed below)",
    );
    expect(toolNames(flagged.body)).toContain("skill_list_docs");
    expect(toolNames(flagged.body)).not.toContain("skill_run");
  });

  it("--no-preamble drops trpc's guidance; bad values are usage errors naming the flag", async () => {
    const bare = await ask(["--no-preamble", "--max-loaded-skills", "1", "--load-mode", "session"]);
    expect(bare.code, bare.err).toBe(0);
    expect(systemText(bare.body)).toContain("Available skills:\n- alpha: Alpha tasks.");
    expect(systemText(bare.body)).not.toContain("Tooling and workspace guidance:");
    const badMode = await ask(["--load-mode", "forever"]);
    expect(badMode.code).toBe(2);
    expect(badMode.err).toContain("--load-mode must be session, turn or once, got 'forever'");
    const badCap = await ask(["--max-loaded-skills", "0"]);
    expect(badCap.code).toBe(2);
    expect(badCap.err).toContain("--max-loaded-skills expects a positive integer, got '0'");
    provider.script.length = 0;
  });
});
