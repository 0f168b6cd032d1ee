import { main } from "../main.js";
import { captureIo } from "./capture-io.js";

/** What one in-process CLI run returned and printed. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `skillrt ...argv` in-process with captured output; `options` are {@link captureIo}'s. */
export async function runCli(argv: string[], options: Parameters<typeof captureIo>[0] = {}): Promise<CliRun> {
  const io = captureIo(options);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}
