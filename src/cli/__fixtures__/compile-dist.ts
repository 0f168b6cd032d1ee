/** Compiles `src/` into `dist/` for tests that run the built CLI in a child process. */
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * Runs `tsc -p tsconfig.build.json`, then checks that `dist/<expected>` exists. Other modules may still
 * have type errors while they are being written; tsc emits regardless, so only the file is checked.
 */
export async function compileDist(expected: string): Promise<void> {
  try {
    execFileSync(
      process.execPath,
      [path.join(repo, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
      { cwd: repo, stdio: "pipe" },
    );
  } catch {
    // checked below
  }
  await fs.access(path.join(repo, "dist", expected));
}
