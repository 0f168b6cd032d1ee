import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalog } from "../../catalog/create-catalog.js";
import { createSkillSession } from "../../context/create-skill-session.js";
import { createTokenCounter } from "../../context/token-counter.js";
import { runCli } from "../__fixtures__/run-cli.js";
import { fm, makeTempDir, writeSkill } from "../__fixtures__/skill-tree.js";

const SKILLS = 200;
const TOPICS = ["invoices", "charts", "audits", "deploys", "backups", "schedules", "translations", "reports"];
const counter = createTokenCounter();

let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;
beforeAll(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp.dir, "skills");
  for (let i = 0; i < SKILLS; i++) {
    const topic = TOPICS[i % TOPICS.length] ?? "data";
    const name = `skill-${String(i).padStart(3, "0")}`;
    const description = `Handles ${topic} for team ${i}. Use when the user asks about ${topic}, including retries, edge cases and reporting.`;
    await writeSkill(root, name, fm(name, description));
  }
});
afterAll(async () => {
  await tmp.cleanup();
});

const prompt = (args: string[]) => runCli(["prompt", ...args], { cwd: tmp.dir });

describe("skillrt prompt under a catalog budget", () => {
  it(`fits ${SKILLS} skills in 300 tokens and says how many were left out and that skill_search finds them`, async () => {
    const { code, out } = await prompt(["--root", "skills", "--catalog-budget", "300"]);
    expect(code).toBe(0);
    expect(counter.count(out)).toBeLessThanOrEqual(300);
    const listed = out.split("\n").filter((line) => line.startsWith("- skill-")).length;
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThan(SKILLS);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toBe("Available skills:");
    const note = lines[lines.length - 1] ?? "";
    expect(note).toContain(`${SKILLS - listed} skills are not listed`);
    expect(note).toContain("Call skill_search with a few keywords");
  });

  it("prints every skill in full without a budget", async () => {
    const { out } = await prompt(["--root", "skills"]);
    expect(out.split("\n").filter((line) => line.startsWith("- skill-"))).toHaveLength(SKILLS);
    expect(out).not.toContain("skill_search");
  });

  it("prints exactly the catalog block a session with the same settings shows the model", async () => {
    const catalog = await createCatalog({ roots: [root] });
    const bare = createSkillSession({ catalog, catalogBudget: 300, preamble: "" });
    expect((await prompt(["--root", "skills", "--catalog-budget", "300"])).out).toBe(
      bare.renderer.systemPrompt(),
    );
    const withPreamble = createSkillSession({ catalog, catalogBudget: 900, catalogFormat: "markdown" });
    const full = await prompt([
      "--root",
      "skills",
      "--catalog-budget",
      "900",
      "-f",
      "markdown",
      "--preamble",
    ]);
    expect(full.out).toBe(withPreamble.renderer.systemPrompt());
    expect(full.out.startsWith("## Skills\n")).toBe(true);
    expect(counter.count(full.out)).toBeLessThanOrEqual(900);
  });

  it("takes 1% of --context-window as the budget when no --catalog-budget is given, like a session", async () => {
    const fromWindow = await prompt(["--root", "skills", "--context-window", "30000"]);
    expect(fromWindow.out).toBe((await prompt(["--root", "skills", "--catalog-budget", "300"])).out);
  });

  it("renders agentskills under a roomy budget byte for byte like the unbudgeted to-prompt output", async () => {
    const reference = await prompt(["--root", "skills", "-f", "agentskills"]);
    const budgeted = await prompt(["--root", "skills", "-f", "agentskills", "--catalog-budget", "1000000"]);
    expect(budgeted.out).toBe(reference.out);
    const tight = await prompt(["--root", "skills", "-f", "agentskills", "--catalog-budget", "300"]);
    expect(counter.count(tight.out)).toBeLessThanOrEqual(300);
    expect(tight.out).toContain("skills are not listed");
  });
});
