import path from "node:path";
import type { ScriptedStep } from "../../testing/scripted-model.js";

/** The repo's example skills (csv-summary among them). */
export const examples = path.resolve(import.meta.dirname, "../../../examples/skills");

/** The CSV the scripted `skill_run` feeds csv-summary's script on stdin. */
const csv = "name,age\nann,31\nbob,27\n";

/** A scripted model's turn over csv-summary: load → read a reference → run the script → answer. */
export const loadReadRun: ScriptedStep[] = [
  { toolCalls: [{ name: "skill_load", input: '{"name":"csv-summary"}' }] },
  { toolCalls: [{ name: "skill_read", input: '{"name":"csv-summary","path":"references/format.md"}' }] },
  {
    toolCalls: [
      {
        name: "skill_run",
        input: JSON.stringify({ name: "csv-summary", command: "node scripts/summarize.mjs -", stdin: csv }),
      },
    ],
  },
  { text: "2 rows; age from 27 to 31." },
];
