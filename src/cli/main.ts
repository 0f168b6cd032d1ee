import type { CliIo } from "./command.js";
import { commands } from "./commands/index.js";

const VERSION = "0.1.0";

function helpText(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length), 8);
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    "skillrt — Agent Skills runtime",
    "",
    "Usage: skillrt <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `skillrt <command> --help` for a command's options.",
    "",
  ].join("\n");
}

/** CLI entry: dispatches to a command and returns the process exit code. */
export async function main(argv: string[], io?: Partial<CliIo>): Promise<number> {
  const fullIo: CliIo = {
    stdout: io?.stdout ?? process.stdout,
    stderr: io?.stderr ?? process.stderr,
    stdin: io?.stdin ?? process.stdin,
    cwd: io?.cwd ?? process.cwd(),
    env: io?.env ?? process.env,
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    fullIo.stdout.write(helpText());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    fullIo.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = commands[name];
  if (entry === undefined) {
    fullIo.stderr.write(`skillrt: unknown command '${name}'\n\n${helpText()}`);
    return 2;
  }
  const command = await entry.load();
  return command.run(rest, fullIo);
}
