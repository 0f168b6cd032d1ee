import { PassThrough } from "node:stream";
import type { CliIo } from "../command.js";

/** A capturing output stream for in-process CLI tests. */
export type CapturedStream = PassThrough & { isTTY?: boolean; columns?: number };

/** {@link CliIo} with captured output, for in-process command tests. */
export interface CapturedIo extends CliIo {
  stdout: CapturedStream;
  stderr: CapturedStream;
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  err(): string;
}

/**
 * Builds a {@link CapturedIo}: `cwd` defaults to the process cwd, `env` to `{ HOME: cwd, SKILLRT_CACHE: "0" }`
 * unless given (so tests never read the real user's skills, and never leave a metadata cache under the
 * checkout's `.cache/`). `tty` marks both streams as terminals.
 */
export function captureIo(
  options: { cwd?: string; env?: Record<string, string | undefined>; tty?: boolean; columns?: number } = {},
): CapturedIo {
  const cwd = options.cwd ?? process.cwd();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  const stdout: CapturedStream = new PassThrough();
  const stderr: CapturedStream = new PassThrough();
  stdout.on("data", (chunk: Buffer) => chunks.out.push(chunk));
  stderr.on("data", (chunk: Buffer) => chunks.err.push(chunk));
  if (options.tty === true) {
    stdout.isTTY = true;
    stderr.isTTY = true;
  }
  if (options.columns !== undefined) stdout.columns = options.columns;
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    cwd,
    env: options.env ?? { HOME: cwd, SKILLRT_CACHE: "0" },
    out: () => Buffer.concat(chunks.out).toString("utf8"),
    err: () => Buffer.concat(chunks.err).toString("utf8"),
  };
}
