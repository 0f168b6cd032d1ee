/** The contract every CLI command module implements. Commands are loaded lazily by `main.ts`. */

/** Streams and environment a command runs against (injected so tests run commands in-process). */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * Whether `stdin` is the process's own (`main` sets it when no stdin was injected), known without
   * opening `process.stdin`: Ctrl-C handling listens for process signals only then.
   */
  processStdin?: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
}

export interface Command {
  name: string;
  /** One line for `skillrt --help`. */
  summary: string;
  /** Full `--help` text. */
  usage: string;
  /**
   * Runs the command. Returns the exit code: 0 success, 1 failure (e.g. validation errors),
   * 2 usage error. Never calls `process.exit`.
   */
  run(argv: string[], io: CliIo): Promise<number>;
}
