// Passes (exit 0) when the trial left out/count.json counting the poem's 10 words.
import { readFileSync } from "node:fs";

const count = JSON.parse(readFileSync("out/count.json", "utf8"));
if (count.words !== 10) {
  process.stderr.write(`expected 10 words, found ${count.words}\n`);
  process.exit(1);
}
process.stdout.write("count is right\n");
