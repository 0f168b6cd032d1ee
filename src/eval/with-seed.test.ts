import { generateText } from "ai";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../testing/scripted-model.js";
import { withSeed } from "./with-seed.js";

describe("withSeed", () => {
  it("sets the seed on every call of the model", async () => {
    const model = scriptedModel([{ text: "one" }, { text: "two" }]);
    const seeded = withSeed(model, 7);
    await generateText({ model: seeded, prompt: "a" });
    await generateText({ model: seeded, prompt: "b" });
    expect(model.calls.map((c) => c.seed)).toEqual([7, 7]);
  });
});
