/**
 * Resolves a list of root specs — folders, archive and SKILL.md URLs, git repositories, local archives —
 * into filesystem roots the catalog scans, fetching what is not cached. One root that cannot be had is a
 * diagnostic; the others are still resolved.
 */
import path from "node:path";
import type { Diagnostic } from "../../spec/types.js";
import { normalizeRoots } from "../default-roots.js";
import type { SkillRoot } from "../types.js";
import { type MaterializeRootOptions, materializeRoot } from "./materialize-root.js";
import { redactUrl } from "./redact-url.js";
import { RemoteRootError } from "./remote-root-error.js";
import { parseRootSpec } from "./root-spec.js";
import { pinSpec } from "./roots-lock.js";

/** Where a resolved remote root came from. */
export interface RemoteOrigin {
  /** The spec as given, without its `#sha256=` pin or a URL's credentials (the URL, `git+…#ref`, or the archive's path). */
  source: string;
  /** `sha256:<hex>` of the fetched bytes, or `git:<commit>`. */
  digest: string;
}

/** Options of {@link resolveRoots}. */
export interface ResolveRootsOptions extends Omit<MaterializeRootOptions, "cacheDir"> {
  /** skillrt's cache directory (`defaultCacheDir`); remote roots are kept in its `remote/` folder. */
  cacheDir: string;
  /** Base of relative paths. Default `process.cwd()`. */
  cwd?: string;
  /**
   * Source → digest of `skillrt.lock.json` (`readRootsLock`): a pinned root resolves to that content only
   * (`pinSpec`). Default: none.
   */
  pins?: ReadonlyMap<string, string>;
}

/** The roots to scan, where the remote ones came from, and why some could not be had. */
export interface ResolvedRoots {
  /** In the order given; a remote root is its cached folder (scope `root` unless given one). */
  roots: SkillRoot[];
  /** Real path of each remote root's folder → its origin (what `list` and `show` print as its source). */
  origins: Map<string, RemoteOrigin>;
  /**
   * One `error` per root that could not be had (`path` is the spec as given, credentials in a URL shown
   * as `***`); a `warning` when a cached copy stood in.
   */
  diagnostics: Diagnostic[];
}

/**
 * Resolves `specs` in order (remote ones fetched in parallel). Plain folder paths are kept as
 * `normalizeRoots` makes them. Never throws for a bad root: it becomes a diagnostic.
 */
export async function resolveRoots(
  specs: ReadonlyArray<string | SkillRoot>,
  options: ResolveRootsOptions,
): Promise<ResolvedRoots> {
  const cwd = options.cwd ?? process.cwd();
  // Per spec, so the diagnostics come in the order the roots were given (fetches finish in any order).
  const found: Diagnostic[][] = specs.map(() => []);
  const origins = new Map<string, RemoteOrigin>();
  const resolved = await Promise.all(
    specs.map(async (given, index): Promise<SkillRoot | string | undefined> => {
      const diagnostics = found[index] as Diagnostic[];
      const text = typeof given === "string" ? given : given.path;
      try {
        const parsed = parseRootSpec(text, cwd);
        if (parsed === undefined) return given;
        const pin = options.pins?.get(redactUrl(parsed.source));
        const spec = pin === undefined ? parsed : pinSpec(parsed, pin);
        // A commit pin resolves without the network and must not take the source's latest cached commit.
        const refresh = options.refresh === true || (pin !== undefined && spec.kind === "git");
        let root: Awaited<ReturnType<typeof materializeRoot>>;
        try {
          root = await materializeRoot(spec, { ...options, refresh });
        } catch (error) {
          if (pin !== undefined && error instanceof Error)
            error.message += ` The root is pinned by skillrt.lock.json to ${pin}; run \`skillrt lock --update\` to take its new content.`;
          throw error;
        }
        if (root.warning !== undefined)
          diagnostics.push({
            code: "root-fetch-failed",
            severity: "warning",
            message: redactUrl(root.warning),
            path: redactUrl(text),
          });
        origins.set(root.path, { source: redactUrl(spec.source), digest: root.digest });
        return { path: root.path, scope: typeof given === "string" ? "root" : given.scope };
      } catch (error) {
        if (!(error instanceof RemoteRootError) && !isFsError(error)) throw error;
        const code = error instanceof RemoteRootError ? error.code : "root-fetch-failed";
        const message = redactUrl((error as Error).message);
        diagnostics.push({ code, severity: "error", message, path: redactUrl(text) });
        return undefined;
      }
    }),
  );
  const kept = resolved.filter((root): root is SkillRoot | string => root !== undefined);
  return { roots: normalizeRoots(kept, cwd), origins, diagnostics: found.flat() };
}

/** The origin of the skill whose root (`record.source`) is `root`, when it is a remote root. */
export function remoteOriginOf(
  origins: ReadonlyMap<string, RemoteOrigin> | undefined,
  root: string,
): RemoteOrigin | undefined {
  return origins?.get(root) ?? origins?.get(path.resolve(root));
}

function isFsError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | undefined)?.code === "string" && error instanceof Error;
}
