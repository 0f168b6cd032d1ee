// Bytes the llm selection pre-pass sends for a catalog of 301 generated skills (bench/gen-skills.mjs,
// descriptions of 150-600 characters): the whole catalog (the baseline, measured in the same run) against
// the search's candidates under the default token budget, over the requests of bench/selection/requests.txt.
// Prints { skills, requests, whole_bytes, candidates_bytes_p50, candidates_bytes_max, ratio } as JSON.
// Run after `npm run build`: npx node bench/select-prompt.mjs [--skills N]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { MockLanguageModelV4 } from "ai/test";
import { createCatalog } from "../dist/catalog/create-catalog.js";
import { createSkillSession } from "../dist/context/create-skill-session.js";
import { selectSkills } from "../dist/engine/select-skills.js";
import { generateSkills } from "./gen-skills.mjs";

const i = process.argv.indexOf("--skills");
const SKILLS = i === -1 ? 301 : Number(process.argv[i + 1]);
const dir = mkdtempSync(path.join(os.tmpdir(), "skillrt-select-prompt-"));
try {
  generateSkills(dir, SKILLS, { files: false });
  const catalog = await createCatalog({ roots: [dir] });
  const requests = readFileSync(new URL("./selection/requests.txt", import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => l.split(" => ")[0]);
  const sent = async (message, candidateTokens) => {
    let bytes = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        bytes = Buffer.byteLength(JSON.stringify(options.prompt));
        return {
          content: [{ type: "text", text: '{"skills": []}' }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const session = createSkillSession({ catalog, placement: "history" });
    await selectSkills({
      mode: "llm",
      session,
      model,
      message,
      ...(candidateTokens === undefined ? {} : { candidateTokens }),
    });
    return bytes;
  };
  const whole = await sent(requests[0], Number.POSITIVE_INFINITY);
  const sizes = [];
  for (const request of requests) sizes.push(await sent(request));
  sizes.sort((a, b) => a - b);
  const p50 = sizes[Math.floor(sizes.length / 2)];
  const max = sizes[sizes.length - 1];
  console.log(
    JSON.stringify({
      skills: catalog.list().length,
      requests: requests.length,
      whole_bytes: whole,
      candidates_bytes_p50: p50,
      candidates_bytes_max: max,
      ratio: Number((p50 / whole).toFixed(3)),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
