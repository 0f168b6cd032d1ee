/**
 * `skillrt chat` in this process on a pretend terminal (a TTY stdin that takes keystrokes, a TTY stdout of
 * a given width), for tests that type into the REPL and read what it drew.
 */
import { PassThrough } from "node:stream";
import { main } from "../../../src/cli/main.js";

/** A running chat: type with `stdin.write`, read everything it printed with `output()`. */
export interface TerminalChat {
  stdin: PassThrough;
  /** stdout and stderr as printed so far. */
  output(): string;
  /** Polls `check` every 10 ms, at most `tries` times (default 1,000: 10 s). */
  waitFor(check: () => boolean, tries?: number): Promise<void>;
  /** The chat's exit code, once it ends. */
  done: Promise<number>;
}

/** Starts `skillrt chat ...args` in `cwd` with exactly `env`, on a terminal `columns` wide (default 100). */
export function startTerminalChat(
  args: string[],
  options: { cwd: string; env: Record<string, string>; columns?: number },
): TerminalChat {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: options.columns ?? 100 });
  let out = "";
  stdout.on("data", (d) => {
    out += String(d);
  });
  const done = main(["chat", ...args], { stdin, stdout, stderr: stdout, cwd: options.cwd, env: options.env });
  return {
    stdin,
    output: () => out,
    async waitFor(check, tries = 1000) {
      for (let i = 0; i < tries && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    },
    done,
  };
}
