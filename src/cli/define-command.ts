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
      const options = { ...definition.options, ...helpOption };
      try {
        const result = parseArgs<ParseConfig<O>>({
          args: negativeValuesJoined(argv, options),
          options,
          allowPositionals: true,
          strict: true,
        });
        parsed = { values: result.values, positionals: result.positionals };
      } catch (error) {
        return usageError(io, definition.name, parseErrorMessage(error, options));
      }
      const common: { help?: unknown } = parsed.values;
      if (common.help === true) {
        io.stdout.write(definition.usage);
        return 0;
      }
      const count = parsed.positionals.length;
      if (count < (definition.minPositionals ?? 0)) {
        const missing = requiredPositionals(definition.usage, definition.name).slice(count);
        const what = missing.length > 0 ? missing.join(" and ") : "an argument";
        const line = definition.usage.split("\n", 1)[0]?.replace(/^Usage:\s*/, "") ?? "";
        return usageError(io, definition.name, `missing ${what} (usage: ${line.trim()})`);
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

/**
 * `argv` with a negative number after an option that takes a value joined to it (`--lines -5` →
 * `--lines=-5`), so it is read as the value, not as an unknown option. Nothing after `--` is touched.
 */
export function negativeValuesJoined(argv: readonly string[], options: ParseArgsOptionsConfig): string[] {
  const takesValue = new Set<string>();
  for (const [name, option] of Object.entries(options)) {
    if (option.type !== "string") continue;
    takesValue.add(`--${name}`);
    if (option.short !== undefined) takesValue.add(`-${option.short}`);
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (takesValue.has(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(arg.startsWith("--") ? `${arg}=${next}` : `${arg}${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Levenshtein distance, for suggesting the option closest to a mistyped one. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] ?? 0;
}

/** The options closest to `unknown` (`--jsn` → `--json`), at most two edits away or a prefix of one. */
export function closestOptions(unknown: string, options: ParseArgsOptionsConfig): string[] {
  const wanted = unknown.replace(/^-+/, "").split("=", 1)[0] ?? "";
  if (wanted === "") return [];
  const scored = Object.keys(options)
    .map((name) => ({ name, d: name.startsWith(wanted) ? 0.5 : distance(wanted, name) }))
    .filter((c) => c.d <= Math.min(2, Math.max(1, Math.floor(wanted.length / 3))) || c.d === 0.5);
  const best = Math.min(...scored.map((c) => c.d));
  return scored.filter((c) => c.d === best).map((c) => `--${c.name}`);
}

/** parseArgs' error in skillrt's words: an unknown option names the closest ones. */
function parseErrorMessage(error: unknown, options: ParseArgsOptionsConfig): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && unknown !== undefined) {
    const closest = closestOptions(unknown, options);
    const hint =
      closest.length > 0
        ? ` Did you mean ${closest.join(" or ")}?`
        : " To pass a value starting with '-' as an argument, put it after '--'.";
    return `unknown option '${unknown}'.${hint}`;
  }
  // Other parse errors (a missing value, …): parseArgs' own words without the error-code noise.
  return message.replace(/^TypeError \[[A-Z_]+\]: /, "").replace(/\.$/, "");
}

/** The required positionals of a usage line (`NAME`, `-- COMMAND`), in order: capitals outside brackets. */
export function requiredPositionals(usage: string, command: string): string[] {
  const line = (usage.split("\n", 1)[0] ?? "").replace(/^Usage:\s*skillrt\s+/, "").replace(command, "");
  const bare = line.replace(/\[[^\]]*\]/g, " ");
  return [...bare.matchAll(/(--\s+)?\b([A-Z][A-Z_]+)\b(?:\.\.\.)?/g)].map((m) =>
    m[1] === undefined ? (m[2] ?? "") : `-- ${m[2]}`,
  );
}
