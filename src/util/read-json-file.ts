/**
 * A project's optional JSON file (a lock file, a config file): absent is `undefined`, unreadable or not
 * JSON is an error naming why, else the parsed value for the caller to check.
 */
import { readFile } from "node:fs/promises";

/** Why {@link readJsonFile} failed: a sentence for a lock file's diagnostic, and the error itself. */
export interface JsonFileError {
  error: string;
  /** `read`: the file could not be read; `json`: it is not JSON. */
  kind: "read" | "json";
  cause: unknown;
}

/** `file` parsed (and its text): `undefined` when it does not exist, a {@link JsonFileError} when it cannot be read or is not JSON. */
export async function readJsonFile(
  file: string,
): Promise<{ json: unknown; text: string } | JsonFileError | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return { error: `cannot read it (${code ?? String(error)})`, kind: "read", cause: error };
  }
  try {
    return { json: JSON.parse(text), text };
  } catch (error) {
    return { error: `invalid JSON (${(error as Error).message})`, kind: "json", cause: error };
  }
}
