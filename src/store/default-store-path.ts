import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The project's session database, `<cwd>/.skillrt/sessions.db`. Creates `.skillrt/` with a `.gitignore`
 * holding `*` (left alone when it already exists), so sessions are never committed by accident.
 */
export function defaultStorePath(cwd: string): string {
  const dir = path.join(path.resolve(cwd), ".skillrt");
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(dir, ".gitignore"), "*\n", { flag: "wx" });
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
  }
  return path.join(dir, "sessions.db");
}
