/**
 * Writes `text` (or bytes) in one call and resolves once the stream has accepted it (waits for `drain`
 * when the write was buffered), so large outputs reach a pipe before the process exits.
 */
export function writeOutput(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  if (text.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    stream.once("error", onError);
    const flushed = stream.write(text);
    const finish = (): void => {
      stream.removeListener("error", onError);
      resolve();
    };
    if (flushed) finish();
    else stream.once("drain", finish);
  });
}

/** Outputs up to this many UTF-16 code units are written as a string; longer ones as UTF-8 bytes. */
const BYTES_ABOVE = 64 * 1024;

/**
 * `json` and a trailing newline as one chunk. Appending `"\n"` to a large string makes a rope the
 * stream must first flatten (a copy of the whole output: ~3 ms for 7 MB); encoding straight into a
 * buffer one byte longer skips that copy and still writes once.
 */
function withNewline(json: string): string | Uint8Array {
  if (json.length <= BYTES_ABOVE) return `${json}\n`;
  const size = Buffer.byteLength(json, "utf8");
  const bytes = Buffer.allocUnsafe(size + 1);
  bytes.write(json, 0, size, "utf8");
  bytes[size] = 0x0a;
  return bytes;
}

/**
 * Stable JSON writer: `value` as JSON and a trailing newline, in one write — indented by 2 spaces on a
 * terminal, compact (one line) when piped, where a program reads it (and 10,000 skills print in a third
 * of the time). Key order is the insertion order of the objects given; callers build them in a fixed
 * order. Properties holding `undefined` are left out (`JSON.stringify` semantics).
 */
export function writeJson(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  value: unknown,
): Promise<void> {
  // String(): JSON.stringify gives undefined for undefined/functions; print what a template would.
  const json = String(stream.isTTY === true ? JSON.stringify(value, null, 2) : JSON.stringify(value));
  return writeOutput(stream, withNewline(json));
}

/** Items per write of {@link writeJsonList} (~700 KB of `skillrt list --json`). */
const LIST_CHUNK_ITEMS = 1000;

/**
 * Writes the JSON of `{ [key]: items, ...rest }` and a trailing newline: the same text as
 * {@link writeJson} (indented on a terminal, compact when piped; `rest` must not hold `key`). When
 * piped and there are many items, the text is written in consecutive chunks of 1,000 items, so the
 * reader takes one chunk while the next is serialised and no single string of the whole output is
 * built (10,000 skills: ~4 ms faster and ~14 MB less memory than one 7 MB write).
 */
export async function writeJsonList(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  key: string,
  items: readonly unknown[],
  rest: Record<string, unknown>,
): Promise<void> {
  if (stream.isTTY === true || items.length <= LIST_CHUNK_ITEMS) {
    return writeJson(stream, { [key]: items, ...rest });
  }
  const restJson = JSON.stringify(rest); // "{}" or "{...}"
  const tail = `${restJson.length > 2 ? `,${restJson.slice(1)}` : "}"}\n`;
  for (let start = 0; start < items.length; start += LIST_CHUNK_ITEMS) {
    const end = start + LIST_CHUNK_ITEMS;
    // An array chunk's JSON without its brackets: the items joined by commas, as in the whole array.
    const body = JSON.stringify(items.slice(start, end)).slice(1, -1);
    const head = start === 0 ? `{${JSON.stringify(key)}:[` : ",";
    await writeOutput(stream, end >= items.length ? `${head}${body}]${tail}` : `${head}${body}`);
  }
}
