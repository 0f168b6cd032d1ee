import { describe, expect, it } from "vitest";
import { captureIo } from "./__fixtures__/capture-io.js";
import { main } from "./main.js";

describe("main", () => {
  it("prints the command list for --help (exit 0) and with no command (exit 2)", async () => {
    const help = captureIo();
    expect(await main(["--help"], help)).toBe(0);
    expect(help.out()).toContain("Usage: skillrt <command> [options]");
    expect(help.out()).toMatch(/^ {2}init +Create a new skill skeleton$/m);
    const none = captureIo();
    expect(await main([], none)).toBe(2);
  });

  it("shows a command's usage for `help <command>`", async () => {
    const io = captureIo();
    expect(await main(["help", "init"], io)).toBe(0);
    expect(io.out()).toContain("Usage: skillrt init NAME");
  });

  it("answers --help and -h on every command with its usage (exit 0)", async () => {
    for (const name of ["list", "validate", "show", "prompt", "init", "search"]) {
      for (const flag of ["--help", "-h"]) {
        const io = captureIo();
        expect(await main([name, flag], io)).toBe(0);
        expect(io.out()).toMatch(
          new RegExp(`^Usage: skillrt ${name}\\b[\\s\\S]*\\n {2}-h, --help +Show this help\\.\\n`),
        );
        expect(io.err()).toBe("");
      }
    }
  });

  it("rejects an unknown command with a suggestion (exit 2)", async () => {
    const io = captureIo();
    expect(await main(["inti"], io)).toBe(2);
    expect(io.err()).toContain("skillrt: unknown command 'inti'. Did you mean 'init'?");
  });

  it("prints the version", async () => {
    const io = captureIo();
    expect(await main(["--version"], io)).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
