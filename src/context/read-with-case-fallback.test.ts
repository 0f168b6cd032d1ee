import { describe, expect, it } from "vitest";
import { createCatalog } from "../catalog/create-catalog.js";
import { defineSkill } from "../catalog/memory-source.js";
import { caseInsensitiveMatches, readFileCaseFallback } from "./read-with-case-fallback.js";

describe("readFileCaseFallback", () => {
  it("reads the unique path differing only in case; names every candidate when several do", async () => {
    const catalog = await createCatalog({
      roots: [],
      memory: [
        defineSkill({
          name: "guide",
          description: "A guide.",
          body: "See REFERENCE.md.",
          resources: { "reference.md": "the reference\n", "Notes.md": "upper\n", "notes.md": "lower\n" },
        }),
      ],
    });
    const found = await readFileCaseFallback(catalog, "guide", "REFERENCE.md");
    expect(found).toMatchObject({ kind: "text", path: "reference.md", content: "the reference\n" });
    const ambiguous = await readFileCaseFallback(catalog, "guide", "NOTES.MD");
    expect(ambiguous).toMatchObject({ kind: "not-found", candidates: ["Notes.md", "notes.md"] });
    expect(await readFileCaseFallback(catalog, "guide", "missing.md")).not.toHaveProperty("candidates");
    expect(caseInsensitiveMatches("./A.md", ["a.md", "A.md", "b.md"])).toEqual(["a.md"]);
  });
});
