import type { CliIo } from "./command.js";
import { commands } from "./commands/index.js";

/** Exit code of an unexpected failure (a bug): `EX_SOFTWARE` from sysexits.h. */
const EXIT_INTERNAL = 70;

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

/**
 * CLI entry: dispatches to a command and returns the process exit code (0 ok, 1 failure — a store, a
 * trust file or a write the system refused, such as a full disk —, 2 usage error or invalid config file,
 * 70 internal error). `io` fields default to the process's streams, cwd and environment. An exception
 * escaping a command is reported in one line (the stack only with `SKILLRT_DEBUG=1`), never thrown.
 */
export async function main(argv: string[], io?: Partial<CliIo>): Promise<number> {
  // The process's streams are opened on first use: creating `process.stdin` for a pipe costs ~1 ms
  // (a socket), and most commands never read it.
  const fullIo: CliIo = {
    get stdout() {
      return io?.stdout ?? process.stdout;
    },
    get stderr() {
      return io?.stderr ?? process.stderr;
    },
    get stdin() {
      return io?.stdin ?? process.stdin;
    },
    processStdin: io?.stdin === undefined,
    cwd: io?.cwd ?? process.cwd(),
    env: io?.env ?? process.env,
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? rest[0] : undefined;
    if (topic !== undefined && commands[topic] !== undefined) return runCommand(topic, ["--help"], fullIo);
    fullIo.stdout.write(helpText());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    const { SKILLRT_VERSION } = await import("../util/version.js");
    fullIo.stdout.write(`${SKILLRT_VERSION}\n`);
    return 0;
  }
  if (commands[name] === undefined) {
    const { closestNames } = await import("../catalog/closest-names.js");
    const near = closestNames(name, Object.keys(commands), 1);
    const hint = near.length > 0 ? ` Did you mean '${near[0]}'?` : "";
    fullIo.stderr.write(`skillrt: unknown command '${name}'.${hint}\n\n${helpText()}`);
    return 2;
  }
  return runCommand(name, rest, fullIo);
}

async function runCommand(name: string, argv: string[], io: CliIo): Promise<number> {
  const entry = commands[name];
  if (entry === undefined) return 2;
  try {
    const command = await entry.load();
    return await command.run(argv, io);
  } catch (error) {
    // The reader of our output went away (`skillrt list --json | head`): not an error, like `yes | head`.
    if ((error as { code?: unknown } | null)?.code === "EPIPE") return 0;
    // A bad config file, a full disk, …: the user's to fix, said in one line with the file and the fix.
    const { knownFailure } = await import("./known-failure.js");
    const known = knownFailure(error);
    if (known !== undefined) {
      io.stderr.write(`skillrt ${name}: ${known.message}\n`);
      return known.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    const debug = io.env["SKILLRT_DEBUG"] !== undefined && io.env["SKILLRT_DEBUG"] !== "";
    const detail = debug && error instanceof Error && error.stack !== undefined ? `\n${error.stack}` : "";
    io.stderr.write(
      `skillrt ${name}: unexpected error: ${message}${detail}\n` +
        (debug ? "" : "This is a bug in skillrt; set SKILLRT_DEBUG=1 for details.\n"),
    );
    return EXIT_INTERNAL;
  }
}
