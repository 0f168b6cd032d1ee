import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { exitCodeOf } from "./exit-code-of.js";

describe("exitCodeOf", () => {
  it("keeps a process's own exit code", () => {
    const child = spawnSync("sh", ["-c", "exit 3"]);
    expect(exitCodeOf(child.status, child.signal)).toBe(3);
  });

  it("maps a signal to 128 + its number, as a shell does", () => {
    const child = spawnSync("sh", ["-c", "kill -KILL $$"]);
    const shell = spawnSync("sh", ["-c", "sh -c 'kill -KILL $$'; echo $?"], { encoding: "utf8" });
    expect(exitCodeOf(child.status, child.signal)).toBe(Number(shell.stdout.trim()));
    expect(exitCodeOf(null, "SIGTERM")).toBe(143);
    expect(exitCodeOf(null, "SIGXFSZ")).toBe(153);
  });

  it("says -1 when neither is known", () => {
    expect(exitCodeOf(null, null)).toBe(-1);
  });
});
