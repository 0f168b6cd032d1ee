import { describe, expect, it } from "vitest";
import { checkCommandPolicy, commandWords } from "./command-policy.js";

describe("command policy", () => {
  it("finds the first word of every simple command, through wrappers, quotes and substitutions", () => {
    expect(commandWords("FOO=1 python3 scripts/x.py 'a;b' | grep -v x && cat out/a > /dev/null")).toEqual([
      "python3",
      "grep",
      "cat",
    ]);
    expect(commandWords('echo "$(curl http://x)" ; `wget y`')).toEqual(["echo", "wget", "curl"]);
    expect(commandWords("env -i timeout 5 /usr/bin/rm -rf x")).toEqual(["env", "timeout", "rm"]);
    expect(commandWords('"rm" -rf x; r"m" y')).toEqual(["rm", "rm"]);
    expect(commandWords("python3 -c 'print(1); import os'")).toEqual(["python3"]);
  });

  it("deny wins over allow; no lists allow everything", () => {
    expect(checkCommandPolicy("rm -rf /", undefined)).toEqual({ ok: true });
    const policy = { allow: ["python3", "rm"], deny: ["rm"] };
    expect(checkCommandPolicy(["/usr/bin/rm", "x"], policy).ok).toBe(false);
    expect(checkCommandPolicy(["python3", "x.py"], policy).ok).toBe(true);
    expect(checkCommandPolicy("python3 x.py; ls", policy).ok).toBe(false);
    expect(checkCommandPolicy('"rm" -rf x', { deny: ["rm"] }).ok).toBe(false);
  });
});
