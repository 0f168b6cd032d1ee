#!/usr/bin/env node
// Re-creates bench/corpus/: public skill collections pinned to the commits the evaluation set was
// written against (about 2,750 SKILL.md files from 10 repositories). Each repository is taken from a
// local bare mirror when one exists (SKILLRT_MIRRORS, default /work/.mirror/<owner>+<name>/repo),
// otherwise shallow-fetched from GitHub at the pinned commit; only its SKILL.md files are extracted
// (git archive).
// The corpus is ignored by git and not needed by CI.
// Usage: node bench/selection/fetch-corpus.mjs   → bench/corpus/<owner>+<name>/…
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** owner/name → commit. */
export const CORPUS = {
  "anthropics/skills": "9d2f1ae187231d8199c64b5b762e1bdf2244733d",
  "openai/skills": "f6b8344b4e519f964d8884d6f60b57991f3f4993",
  "obra/superpowers": "44c9b2d6e889982ac18c27d05a19fefe335194e1",
  "vercel-labs/agent-skills": "b9c8ee0643d87d3c5a953d1e22382ff2ead39229",
  "K-Dense-AI/claude-scientific-skills": "899a51bfbd63218153b272c9459dcb4a7ae88da6",
  "wshobson/agents": "367cb6a4a182cf7e9b0a17c9429f7411ddd9cf35",
  "alirezarezvani/claude-skills": "7d493fed97e4d57553630e1a2432c1c02bf5b2b3",
  "ComposioHQ/awesome-claude-skills": "f2b5e29bc315f04c8e09591ba275f4c4f7d4b8fe",
  "sickn33/antigravity-awesome-skills": "e1dd8f41bcb43c3bb025d5056183729a626b696d",
  "github/awesome-copilot": "ab7544d03d4c49fdd07f5958e1888ad39c4118e2",
};

const here = path.dirname(fileURLToPath(import.meta.url));
export const CORPUS_DIR = path.resolve(here, "../corpus");

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mirrors = process.env.SKILLRT_MIRRORS ?? "/work/.mirror";
  mkdirSync(CORPUS_DIR, { recursive: true });
  for (const [repo, commit] of Object.entries(CORPUS)) {
    const slug = repo.replace("/", "+");
    const out = path.join(CORPUS_DIR, slug);
    if (existsSync(out)) {
      console.error(`${repo}: present`);
      continue;
    }
    let gitDir = path.join(mirrors, slug, "repo");
    let temp;
    if (!existsSync(gitDir)) {
      temp = mkdtempSync(path.join(os.tmpdir(), "skillrt-corpus-"));
      gitDir = path.join(temp, "git");
      execFileSync("git", ["init", "--bare", "-q", gitDir]);
      execFileSync(
        "git",
        ["--git-dir", gitDir, "fetch", "-q", "--depth", "1", `https://github.com/${repo}.git`, commit],
        {
          stdio: "inherit",
        },
      );
    }
    mkdirSync(out, { recursive: true });
    // Only the SKILL.md files: what search and the catalog read (mirrors may lack large binary blobs).
    const tar = execFileSync(
      "git",
      ["--git-dir", gitDir, "archive", "--format=tar", commit, "--", ":(glob)**/SKILL.md"],
      {
        maxBuffer: 1 << 30,
      },
    );
    execFileSync("tar", ["-x", "-C", out], { input: tar });
    if (temp) rmSync(temp, { recursive: true, force: true });
    console.error(`${repo}: extracted at ${commit.slice(0, 12)}`);
  }
}
