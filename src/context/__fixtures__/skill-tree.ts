/** Test helper: writes skill folders into a fresh temp dir and builds the real catalog over it. */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createCatalog } from "../../catalog/create-catalog.js";
import type { Catalog, MemorySkill } from "../../catalog/types.js";

/** One skill to write: frontmatter fields, body, and extra files (relative path → content). */
export interface SkillSpec {
  name: string;
  description: string;
  body?: string;
  frontmatter?: Record<string, string>;
  files?: Record<string, string | Uint8Array>;
}

/** A temp root with skills and its catalog; `cleanup()` removes it. */
export interface SkillTree {
  root: string;
  catalog: Catalog;
  cleanup(): Promise<void>;
}

/** Writes `skills` under a new temp dir and returns the catalog over it (plus `memory` skills). */
export async function makeSkillTree(skills: SkillSpec[], memory: MemorySkill[] = []): Promise<SkillTree> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillrt-ctx-")));
  for (const skill of skills) {
    const dir = path.join(root, "skills", skill.name);
    await fs.mkdir(dir, { recursive: true });
    const extra = Object.entries(skill.frontmatter ?? {})
      .map(([k, v]) => `${k}: ${v}\n`)
      .join("");
    await fs.writeFile(
      path.join(dir, "SKILL.md"),
      `---\nname: ${skill.name}\ndescription: ${skill.description}\n${extra}---\n\n${skill.body ?? `# ${skill.name}\n\nDo the ${skill.name} thing.`}\n`,
    );
    for (const [rel, content] of Object.entries(skill.files ?? {})) {
      await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await fs.writeFile(path.join(dir, rel), content);
    }
  }
  const catalog = await createCatalog({ roots: [path.join(root, "skills")], memory });
  return { root, catalog, cleanup: () => fs.rm(root, { recursive: true, force: true }) };
}

/** The standard fixture: pdf (docs, script, binary asset), docx, a hidden and a non-user-invocable skill. */
export function standardSkills(): SkillSpec[] {
  return [
    {
      name: "pdf",
      description: "Extract text and tables from PDF files, fill PDF forms, merge documents.",
      body:
        "# PDF\n\nUse scripts/extract.py to extract text. See references/forms.md for forms.\nArgs: $ARGUMENTS first=$0 second=$1 missing=$5 dir=$" +
        "{SKILL_DIR} session=$" +
        "{SESSION_ID}",
      files: {
        "references/forms.md": "# Forms\n\nHow to fill forms.\n",
        "references/api.md": "# API\n\nline 2\nline 3\nline 4\n",
        "notes.txt": "plain notes\n",
        "scripts/extract.py": "print('hi')\n",
        "assets/logo.png": new Uint8Array([
          0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
        ]),
      },
    },
    { name: "docx", description: "Create and edit Word documents with tracked changes." },
    {
      name: "secret-ops",
      description: "Internal operations only people may trigger.",
      frontmatter: { "disable-model-invocation": "true" },
    },
    {
      name: "background",
      description: "Background knowledge the model may use.",
      frontmatter: { "user-invocable": "false" },
    },
  ];
}
