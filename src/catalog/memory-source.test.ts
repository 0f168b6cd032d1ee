import { describe, expect, it } from "vitest";
import { SkillrtError } from "../errors/skillrt-error.js";
import { closestNames } from "./closest-names.js";
import {
  defineSkill,
  memorySkillFiles,
  memorySkillRecord,
  readMemorySkillFile,
  renderMemorySkillMd,
} from "./memory-source.js";
import { detectContent } from "./mime-type.js";

describe("defineSkill", () => {
  it("rejects empty names, empty descriptions and resource paths that leave the skill", () => {
    const base = { name: "x", description: "d", body: "b" };
    for (const bad of [
      { ...base, name: " " },
      { ...base, description: "" },
      { ...base, resources: { "../up.md": "no" } },
      { ...base, resources: { "/abs.md": "no" } },
    ]) {
      const error = (() => {
        try {
          defineSkill(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(SkillrtError.isInstance(error) && error.code).toBe("invalid-argument");
    }
  });

  it("normalises resource paths and renders a SKILL.md whose body starts at bodyLine", () => {
    const skill = defineSkill({
      name: "greet",
      description: "Greets: people.",
      body: "Say hello.\nThen wave.",
      license: "MIT",
      extras: { tags: ["a", "b"], active: "true" },
      resources: {
        "./scripts\\hi.sh": "echo hi\n",
        "assets/pixel.png": Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      },
    });
    expect(Object.keys(skill.resources ?? {})).toEqual(["scripts/hi.sh", "assets/pixel.png"]);
    const { text, bodyLine } = renderMemorySkillMd(skill);
    expect(text.split("\n")[bodyLine - 1]).toBe("Say hello.");
    expect(text).toContain('description: "Greets: people."');
    expect(memorySkillRecord(skill).record).toMatchObject({ active: true, license: "MIT", scope: "memory" });
    expect(memorySkillFiles(skill).map((f) => [f.path, f.kind, f.binary])).toEqual([
      ["SKILL.md", "doc", false],
      ["assets/pixel.png", "asset", true],
      ["scripts/hi.sh", "script", false],
    ]);
    expect(readMemorySkillFile(skill, "assets/pixel.png")).toEqual({
      kind: "binary",
      path: "assets/pixel.png",
      size: 8,
      mimeType: "image/png",
    });
  });
});

describe("detectContent", () => {
  it("trusts magic numbers over extensions, and flags NUL bytes and invalid UTF-8 as binary", () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(detectContent("a.txt", Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]))).toEqual({
      mimeType: "application/pdf",
      binary: true,
    });
    expect(detectContent("notes", bytes("plain words"))).toEqual({ mimeType: "text/plain", binary: false });
    expect(detectContent("data.bin", Uint8Array.from([0xff, 0xfe, 0x00]))).toEqual({
      mimeType: "application/octet-stream",
      binary: true,
    });
    expect(detectContent("x.json", bytes('{"a":1}'))).toEqual({
      mimeType: "application/json",
      binary: false,
    });
    expect(detectContent("doc.docx", Uint8Array.from([0x50, 0x4b, 0x03, 0x04]))).toMatchObject({
      binary: true,
      mimeType: expect.stringContaining("wordprocessingml"),
    });
  });
});

describe("closestNames", () => {
  it("prefers exact, then prefix or substring, then small edit distances", () => {
    const names = ["pdf-tools", "pdf-forms", "git-helper", "docx-editor"];
    expect(closestNames("pdf", names)).toEqual(["pdf-forms", "pdf-tools"]);
    expect(closestNames("git-helpr", names)).toEqual(["git-helper"]);
    expect(closestNames("zzz", names)).toEqual([]);
  });
});
