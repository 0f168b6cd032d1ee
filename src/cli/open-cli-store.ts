/**
 * The session store of a CLI run: `--store URL`, else `SKILLRT_STORE_URL`, else the config's `store.url`
 * (a relative `sqlite:` path from its file's directory), else `.skillrt/sessions.db` under the cwd.
 */
import path from "node:path";
import type { SkillrtConfig } from "../config/load-skillrt-config.js";
import { openSessionStore } from "../store/open-session-store.js";
import type { SessionStore } from "../store/session-store.js";

/** Opens the store the flag, environment or config names (throws `invalid-argument` for an unknown kind). */
export function openCliStore(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  config: SkillrtConfig,
  cwd: string,
): SessionStore {
  // The highest-precedence file that sets a store section decides both the URL and the schema.
  const source = [...config.sources].reverse().find((s) => s.config.store !== undefined);
  const fromFile = source?.config.store;
  const schema = fromFile?.schema;
  const chosen = [flag, env["SKILLRT_STORE_URL"]].find((u) => u !== undefined && u.trim() !== "");
  if (chosen !== undefined) return openSessionStore({ url: chosen, cwd, schema });
  const url = fromFile?.url;
  const base = source === undefined ? cwd : path.dirname(source.file);
  return openSessionStore({ url, cwd: url?.startsWith("sqlite:") === true ? base : cwd, schema });
}
