import { describe, expect, it } from "vitest";
import { createCatalog } from "./create-catalog.js";
import { defineSkill } from "./memory-source.js";
import { idiomTerms } from "./search-idioms.js";
import { SearchIndex } from "./search-index.js";

describe("idiomTerms", () => {
  it("reads the intent of everyday phrasings as the stemmed words skill descriptions use", () => {
    expect(idiomTerms("can someone look over my changes before I merge")).toEqual(["review", "feedback"]);
    expect(idiomTerms("Bounce around some ideas; then SPEED UP the build")).toEqual([
      "brainstorm",
      "idea",
      "performanc",
      "optimiz",
    ]);
  });

  it("matches whole words only, and nothing in a request without such a phrasing", () => {
    expect(idiomTerms("the outlook overview of the sign-up page")).toEqual(["signup", "registrat"]);
    expect(idiomTerms("lookover the backup of go-overs")).toEqual([]);
    expect(idiomTerms("merge these PDFs into one file")).toEqual([]);
    expect(idiomTerms("")).toEqual([]);
  });
});

describe("search with idioms", () => {
  const skill = (name: string, description: string) => defineSkill({ name, description, body: "b" });

  it("ranks the skill an idiom stands for first, and only because of the idiom", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [
        skill("code-review", "Request a code review of your changes before merging them."),
        skill("changelog", "Lists changes: a changelog of the changes since the last tag."),
      ],
    });
    const query = "can someone look over my changes";
    expect((await catalog.search(query, 2)).map((h) => h.record.name)).toEqual(["code-review", "changelog"]);
    const without = new SearchIndex(catalog.list(), { idiom: 0 }).search(query, 2);
    expect(without.map((h) => h.record.name)).toEqual(["changelog", "code-review"]);
  });

  it("answers a query made only of an idiom's words", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [skill("perf", "Performance profiling to optimize hot paths."), skill("docs", "Writes docs.")],
    });
    expect((await catalog.search("speed up", 5)).map((h) => h.record.name)).toEqual(["perf"]);
  });
});
