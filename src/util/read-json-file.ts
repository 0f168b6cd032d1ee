/**
 * A project's optional JSON file (a lock file): absent is `undefined`, unreadable or not JSON is an error
 * sentence naming why, else the parsed value for the caller to check.
 */
import { readFile } from "node:fs/promises";

/** `file` parsed: `undefined` when it does not exist, `{ error }` when it cannot be read or is not JSON. */
export async function readJsonFile(file: string): Promise<{ json: unknown } | { error: string } | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return { error: `cannot read it (${code ?? String(error)})` };
  }
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    return { error: `invalid JSON (${(error as Error).message})` };
  }
}
