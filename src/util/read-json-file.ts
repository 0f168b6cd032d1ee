/**
 * A project's optional JSON file (a lock file, a config file): absent is `undefined`, unreadable, not a
 * regular file, too large or not JSON is an error naming why, else the parsed value for the caller to check.
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** Largest JSON file read (far above any real lock or config file): a bigger one is refused, not read. */
export const MAX_JSON_FILE_BYTES = 32 * 1024 * 1024;

/** Why {@link readJsonFile} failed: a sentence for a lock file's diagnostic, and the error itself. */
export interface JsonFileError {
  error: string;
  /** `read`: the file could not be read (or is not a regular file, or too large); `json`: it is not JSON. */
  kind: "read" | "json";
  cause: unknown;
}

const { O_RDONLY, O_NONBLOCK = 0 } = constants;

/**
 * `file` parsed (and its text): `undefined` when it does not exist, a {@link JsonFileError} when it cannot
 * be read or is not JSON. The file is opened without blocking and checked to be a regular file before it is
 * read: a FIFO (or a device) at its path is refused at once instead of hanging the read forever.
 */
export async function readJsonFile(
  file: string,
): Promise<{ json: unknown; text: string } | JsonFileError | undefined> {
  let text: string;
  try {
    const handle = await open(file, O_RDONLY | O_NONBLOCK);
    try {
      const stat = await handle.stat();
      const refused = !stat.isFile()
        ? `it is ${kindOf(stat)}, not a regular file; remove or rename it`
        : stat.size > MAX_JSON_FILE_BYTES
          ? `it is ${stat.size} bytes, more than the ${MAX_JSON_FILE_BYTES / 1024 / 1024} MiB read`
          : undefined;
      if (refused !== undefined)
        return { error: `cannot read it: ${refused}`, kind: "read", cause: new Error(refused) };
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
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

/** What a non-regular file is, for the message. */
function kindOf(stat: import("node:fs").Stats): string {
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isDirectory()) return "a directory";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "not a file";
}
