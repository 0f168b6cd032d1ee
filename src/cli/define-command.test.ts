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
});
