/**
 * The trust of a CLI run: project-scope and remote roots as the user's trust file records them, the
 * user config's `trust` (a project's own config file cannot trust itself), `--trust` for the whole run.
 */
import os from "node:os";
import path from "node:path";
import {
  openRecordedTrust,
  type RecordedTrust,
  type UntrustedRoot,
  untrustedRootsOf,
} from "../catalog/recorded-trust.js";
import type { RemoteOrigin } from "../catalog/remote/resolve-roots.js";
import { defaultStateDir, trustDirProblem } from "../catalog/trust-file.js";
import type { SkillRoot } from "../catalog/types.js";
import type { SkillrtConfig } from "../config/load-skillrt-config.js";
import { mcpServerDigest } from "../config/mcp-server-digest.js";
import { cliHome } from "./cli-home.js";

/** Options of {@link openCliTrust}. */
export interface CliTrustOptions {
  roots: readonly SkillRoot[];
  origins: ReadonlyMap<string, RemoteOrigin>;
  env: Record<string, string | undefined>;
  config: SkillrtConfig;
  /** `--trust`: every root is trusted for this run (nothing is recorded). */
  trustAll?: boolean;
  /** Asks a person whether to trust a root (`chat`); a yes is recorded. */
  ask?: (root: UntrustedRoot) => Promise<boolean>;
  warn: (message: string) => void;
}

/** `true` (trust everything) or the recorded trust of the run's roots. */
export async function openCliTrust(options: CliTrustOptions): Promise<true | RecordedTrust> {
  if (options.trustAll === true) return true;
  const home = cliHome(options.env).home ?? os.homedir();
  const userFile = path.join(home, ".skillrt", "config.json");
  let fromUser: boolean | string[] | undefined;
  for (const source of options.config.sources) {
    if (source.config.trust === undefined) continue;
    if (source.file === userFile) fromUser = source.config.trust;
    else
      options.warn(`${source.file}: 'trust' is ignored here; only ~/.skillrt/config.json can trust roots.`);
  }
  if (fromUser === true) return true;
  // Folders a project's own config file names are the project's: untrusted like its default roots.
  const projectNamed = new Set<string>();
  for (const source of options.config.sources) {
    if (source.file === userFile) continue;
    for (const entry of source.config.roots ?? []) {
      const spec = typeof entry === "string" ? entry : entry.source;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(spec)) projectNamed.add(path.resolve(path.dirname(source.file), spec));
    }
  }
  const untrusted = untrustedRootsOf(options.roots, options.origins);
  for (const root of options.roots) {
    const id = path.resolve(root.path);
    if (projectNamed.has(id) && !untrusted.some((u) => path.resolve(u.path) === id))
      untrusted.push({ path: root.path, origin: { kind: "fs", id }, display: root.path });
  }
  const servers = Object.entries(options.config.mcpServers ?? {}).map(([name, entry]) => ({
    name,
    digest: mcpServerDigest(entry),
  }));
  const stateDir = defaultStateDir(options.env, home);
  // A trust file another user could have written (its folder, or one on the way to it, is theirs or
  // writable by them) trusts nothing: said once, when there is something it could have trusted.
  const problem =
    stateDir === undefined || (untrusted.length === 0 && servers.length === 0)
      ? undefined
      : trustDirProblem(stateDir);
  if (problem !== undefined)
    options.warn(
      `the trust file's directory is not used: ${problem}. Nothing recorded there is trusted in this run; fix its owner and mode (0700) or set SKILLRT_STATE_DIR.`,
    );
  return openRecordedTrust({
    roots: untrusted,
    servers,
    stateDir: problem === undefined ? stateDir : undefined,
    warn: options.warn,
    ...(Array.isArray(fromUser) ? { trusted: fromUser } : {}),
    ...(options.ask === undefined ? {} : { ask: options.ask }),
  });
}
