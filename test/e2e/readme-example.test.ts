/** The README's library example type-checks (it is imported here) and runs against the AI SDK mock model. */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { askWithSkills } from "../../docs/library-example.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

describe("README library example", () => {
  it("loads a skill through the model's tool call and returns the answer", async () => {
    const prompts: string[] = [];
    let call = 0;
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        prompts.push(JSON.stringify(options.prompt));
        const chunks: LanguageModelV4StreamPart[] =
          call++ === 0
            ? [
                {
                  type: "tool-call",
                  toolCallId: "c1",
                  toolName: "skill_load",
                  input: '{"name":"markdown-toc"}',
                },
                { type: "finish", usage, finishReason: { unified: "tool-calls", raw: undefined } },
              ]
            : [
                { type: "text-start", id: "t" },
                { type: "text-delta", id: "t", delta: "Run scripts/toc.mjs on your file." },
                { type: "text-end", id: "t" },
                { type: "finish", usage, finishReason: { unified: "stop", raw: undefined } },
              ];
        return { stream: simulateReadableStream({ chunks, chunkDelayInMs: null }) };
      },
    });
    const cwd = process.cwd();
    process.chdir(path.resolve(import.meta.dirname, "../.."));
    try {
      const answer = await askWithSkills("Give my README a table of contents", model);
      expect(answer).toBe("Run scripts/toc.mjs on your file.");
    } finally {
      process.chdir(cwd);
    }
    expect(prompts[0]).toContain("markdown-toc");
    expect(prompts[0]).not.toContain("tocstop");
    expect(prompts[1]).toContain("tocstop");
    expect(prompts[1]).toContain("toc.mjs");
  });

  it("is the code the README shows (imports from the package name)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const shown = /<!-- library-example:start -->\n```ts\n([\s\S]*?)```\n<!-- library-example:end -->/.exec(
      readme,
    )?.[1];
    const source = readFileSync(path.join(root, "docs/library-example.ts"), "utf8")
      .replace(/^\/\/ README example.*\n/, "")
      .replaceAll('"../src/index.js"', '"skillrt"');
    expect(shown).toBe(source);
  });
});
