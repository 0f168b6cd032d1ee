import { mkdtemp, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** A fresh temporary directory (real path, so comparisons with resolved paths hold). */
export async function makeTempDir(prefix = "skillrt-config-"): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}
