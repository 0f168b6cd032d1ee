import os from "node:os";
import path from "node:path";

/**
 * Where the catalog's metadata cache lives for this user, or undefined when it is switched off:
 * `SKILLRT_CACHE=0` (or `off`, `false`) switches it off; `SKILLRT_CACHE_DIR` names the directory;
 * else `$XDG_CACHE_HOME/skillrt` (when absolute), else `~/.cache/skillrt` (`home`, default
 * `os.homedir()`).
 */
export function defaultCacheDir(
  env: Record<string, string | undefined> = process.env,
  home: string = os.homedir(),
): string | undefined {
  const off = env["SKILLRT_CACHE"]?.trim().toLowerCase();
  if (off === "0" || off === "off" || off === "false" || off === "no") return undefined;
  const explicit = env["SKILLRT_CACHE_DIR"];
  if (explicit !== undefined && explicit !== "") return path.resolve(explicit);
  const xdg = env["XDG_CACHE_HOME"];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, "skillrt");
  if (home === "") return undefined;
  return path.join(home, ".cache", "skillrt");
}
