// Counts the words of the file named on the command line; writes $OUTPUT_DIR/count.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const file = process.argv[2];
const words = readFileSync(file, "utf8").split(/\s+/).filter(Boolean).length;
writeFileSync(
  path.join(process.env.OUTPUT_DIR ?? ".", "count.json"),
  JSON.stringify({ file: path.basename(file), words }),
);
process.stdout.write(`${words} words\n`);
