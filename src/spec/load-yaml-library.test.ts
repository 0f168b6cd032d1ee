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
  expect(isYamlLibraryLoaded()).toBe(false);
  const r = parseSkillMd("---\nname: d\ndescription: d\nallowed-tools: [Read]\n---\n");
  expect(r.skill?.allowedTools).toEqual(["Read"]);
  expect(isYamlLibraryLoaded()).toBe(true);
});
