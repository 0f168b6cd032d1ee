import { readChecksummedFile, writeChecksummedFile } from "./checksummed-file.js";

/**
 * Writes `value` as JSON with {@link writeChecksummedFile} (header with magic, version, checksum and
 * length; private temporary file renamed into place). Throws the fs error on failure.
 */
export function writeChecksummedJson(
  dir: string,
  file: string,
  magic: string,
  version: number,
  value: unknown,
): void {
  writeChecksummedFile(dir, file, magic, version, Buffer.from(JSON.stringify(value)));
}

/**
 * The JSON value of a file written by {@link writeChecksummedJson} with the same magic and version, or
 * undefined when the file is missing, of another kind or version, truncated, altered (checksum) or
 * not JSON. Never throws.
 */
export function readChecksummedJson(file: string, magic: string, version: number): unknown {
  const body = readChecksummedFile(file, magic, version);
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}
