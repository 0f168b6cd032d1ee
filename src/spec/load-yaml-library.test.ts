import { expect, test } from "vitest";
import { isYamlLibraryLoaded } from "./load-yaml-library.js";
import { parseSkillMd } from "./parse-skill-md.js";

test("simple skills never load the yaml library; the first complex one does", () => {
  const simple = [
    "---\nname: a\ndescription: Plain text.\nlicense: MIT\n---\nBody",
    '---\nname: b\ndescription: "Quoted \\"text\\"."\nmetadata:\n  author: x\n  version: "1.0"\n---\n',
    "---\nname: c\ndescription: >-\n  Folded\n  text.\nallowed-tools: Read Grep\n---\n",
  ];
  for (const text of simple) {
    for (const mode of ["strict", "lenient"] as const)
      expect(parseSkillMd(text, { mode }).skill).toBeDefined();
  }
  // Lenient mode also reads wrapped plain values and one-line flow lists (with their warning) itself.
  const wrapped = parseSkillMd(
    "---\nname: e\ndescription: Wrapped\n  text.\nallowed-tools: [Read, Grep]\n---\n",
    { mode: "lenient" },
  );
  expect(wrapped.skill?.description).toBe("Wrapped text.");
  expect(wrapped.skill?.allowedTools).toEqual(["Read", "Grep"]);
  expect(wrapped.diagnostics.map((d) => d.code)).toEqual(["yaml-flow-collection"]);
  expect(isYamlLibraryLoaded()).toBe(false);
  const r = parseSkillMd('---\nname: d\ndescription: d\nallowed-tools: [Read, "Bash(git:*)"]\n---\n');
  expect(r.skill?.allowedTools).toEqual(["Read", "Bash(git:*)"]);
  expect(isYamlLibraryLoaded()).toBe(true);
});
