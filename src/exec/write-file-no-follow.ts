import type { Stats } from "node:fs";
import { constants } from "node:fs";
import { open } from "node:fs/promises";

/**
 * Writes `content` to `file` (created 0644 or truncated) without following a symlink at its last
 * component (`O_NOFOLLOW`: a planted link makes the write fail, never lands elsewhere). Resolves with the
 * written file's stat.
 */
export async function writeFileNoFollow(file: string, content: Uint8Array): Promise<Stats> {
  const handle = await open(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(content);
    return await handle.stat();
  } finally {
    await handle.close();
  }
}
