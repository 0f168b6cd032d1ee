import { describe, expect, it } from "vitest";
import { captureIo } from "./__fixtures__/capture-io.js";
import { defineCommand } from "./define-command.js";

const echo = defineCommand({
  name: "echo",
  summary: "Echo",
  usage: "Usage: skillrt echo WORD [--loud]\n",
  options: { loud: { type: "boolean" }, root: { type: "string", multiple: true } },
  minPositionals: 1,
  maxPositionals: 1,
  async run({ values, positionals }, io) {
    const word = positionals[0] ?? "";
    io.stdout.write(`${values.loud === true ? word.toUpperCase() : word} ${(values.root ?? []).join(",")}\n`);
    return 0;
  },
});

describe("defineCommand", () => {
  it("runs with parsed flags and positionals", async () => {
    const io = captureIo();
    expect(await echo.run(["hi", "--loud", "--root", "a", "--root", "b"], io)).toBe(0);
    expect(io.out()).toBe("HI a,b\n");
  });

  it("prints usage for --help and -h with exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const io = captureIo();
      expect(await echo.run([flag], io)).toBe(0);
      expect(io.out()).toBe("Usage: skillrt echo WORD [--loud]\n");
    }
  });

  it("turns unknown options, missing and extra arguments into usage errors (exit 2, hint to --help)", async () => {
    for (const argv of [["hi", "--nope"], [], ["a", "b"]]) {
      const io = captureIo();
      expect(await echo.run(argv, io)).toBe(2);
      expect(io.err()).toMatch(/^skillrt echo: .+\nRun 'skillrt echo --help' for usage\.\n$/);
      expect(io.out()).toBe("");
    }
    const io = captureIo();
    await echo.run(["hi", "--nope"], io);
    expect(io.err()).toContain("--nope");
  });

  it("suggests the closest option for an unknown one, in skillrt's words", async () => {
    const io = captureIo();
    const json = defineCommand({
      ...base,
      options: { json: { type: "boolean" }, lines: { type: "string" } },
    });
    expect(await json.run(["x", "--jsn"], io)).toBe(2);
    expect(io.err()).toBe(
      "skillrt t: unknown option '--jsn'. Did you mean --json?\nRun 'skillrt t --help' for usage.\n",
    );
    const far = captureIo();
    await json.run(["x", "--zzzzzz"], far);
    expect(far.err()).toContain(
      "unknown option '--zzzzzz'. To pass a value starting with '-' as an argument, put it after '--'.",
    );
  });

  it("names the missing positionals from the usage line (run needs NAME and -- COMMAND)", async () => {
    const run = defineCommand({
      ...base,
      name: "run",
      usage: "Usage: skillrt run NAME [options] -- COMMAND [ARGS...]\n",
      minPositionals: 2,
    });
    const none = captureIo();
    expect(await run.run([], none)).toBe(2);
    expect(none.err()).toBe(
      "skillrt run: missing NAME and -- COMMAND (usage: skillrt run NAME [options] -- COMMAND [ARGS...])\n" +
        "Run 'skillrt run --help' for usage.\n",
    );
    const one = captureIo();
    await run.run(["pdf"], one);
    expect(one.err()).toMatch(/^skillrt run: missing -- COMMAND \(usage/);
  });

  it("reads a negative number after an option that takes a value as its value", async () => {
    const seen: unknown[] = [];
    const cmd = defineCommand({
      ...base,
      options: {
        lines: { type: "string" },
        count: { type: "string", short: "n" },
        json: { type: "boolean" },
      },
      async run({ values, positionals }) {
        seen.push(values.lines, values.count, positionals);
        return 0;
      },
    });
    expect(await cmd.run(["x", "--lines", "-5", "-n", "-2", "--", "--lines", "-3"], captureIo())).toBe(0);
    expect(seen).toEqual(["-5", "-2", ["x", "--lines", "-3"]]);
  });
});

const base = {
  name: "t",
  summary: "T",
  usage: "Usage: skillrt t WORD\n",
  options: {},
  async run() {
    return 0;
  },
};
