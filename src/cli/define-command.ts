import type { ParseArgsOptionsConfig } from "node:util";
import type { CliIo, Command } from "./command.js";

// Taken from the module itself: importing node:util builds its module namespace, which loads the rest
// of node:util (diff, colors, worker_threads, …): several milliseconds of every command's start-up.
const { parseArgs } = process.getBuiltinModule("node:util");

const helpOption = { help: { type: "boolean", short: "h" } } as const;

type ParseConfig<O extends ParseArgsOptionsConfig> = {
  args: string[];
  options: O & typeof helpOption;
  allowPositionals: true;
  strict: true;
};

/** Parsed `--flag` values of a command, typed from its option table (`--help` included). */
export type CommandValues<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<ParseConfig<O>>
>["values"];

/** What a command's `run` receives once its arguments parsed cleanly. */
export interface CommandArgs<O extends ParseArgsOptionsConfig> {
  values: CommandValues<O>;
  positionals: string[];
}

/** Definition of a CLI command: its option table and a handler that only sees valid arguments. */
export interface CommandDefinition<O extends ParseArgsOptionsConfig> {
  name: string;
  summary: string;
  /** Full `--help` text (ends with a newline). */
  usage: string;
  /** `node:util` `parseArgs` options; `--help`/`-h` is added to every command. */
  options: O;
  /** Fewest positional arguments (default 0). */
  minPositionals?: number;
  /** Most positional arguments (default unlimited). */
  maxPositionals?: number;
  run(args: CommandArgs<O>, io: CliIo): Promise<number>;
}

/**
 * Builds a {@link Command} from a definition: parses `argv` with `node:util` `parseArgs` (strict),
 * prints the usage for `--help`/`-h` (exit 0), and turns bad arguments into a usage error
 * (message plus a hint to `--help`, exit 2) before `run` is called.
 */
export function defineCommand<const O extends ParseArgsOptionsConfig>(
  definition: CommandDefinition<O>,
): Command {
  return {
    name: definition.name,
    summary: definition.summary,
    usage: definition.usage,
    async run(argv, io) {
      let parsed: CommandArgs<O>;
      try {
        const result = parseArgs<ParseConfig<O>>({
          args: argv,
          options: { ...definition.options, ...helpOption },
          allowPositionals: true,
          strict: true,
        });
        parsed = { values: result.values, positionals: result.positionals };
      } catch (error) {
        return usageError(io, definition.name, cleanParseMessage(error));
      }
      const common: { help?: unknown } = parsed.values;
      if (common.help === true) {
        io.stdout.write(definition.usage);
        return 0;
      }
      const count = parsed.positionals.length;
      if (count < (definition.minPositionals ?? 0)) {
        return usageError(io, definition.name, "missing argument");
      }
      if (definition.maxPositionals !== undefined && count > definition.maxPositionals) {
        const extra = parsed.positionals.slice(definition.maxPositionals).join(" ");
        return usageError(io, definition.name, `unexpected argument '${extra}'`);
      }
      return definition.run(parsed, io);
    },
  };
}

/**
 * Writes a usage error for `command` to stderr (`skillrt <command>: <message>` and a hint to `--help`)
 * and returns exit code 2.
 */
export function usageError(io: CliIo, command: string, message: string): number {
  io.stderr.write(`skillrt ${command}: ${message}\nRun 'skillrt ${command} --help' for usage.\n`);
  return 2;
}

function cleanParseMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs suggests `--` for dash-leading values; that hint is accurate, keep it, but drop the error-code noise.
  return message.replace(/^TypeError \[[A-Z_]+\]: /, "").replace(/\.$/, "");
}
