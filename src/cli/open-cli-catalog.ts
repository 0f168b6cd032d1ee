import { createCatalog } from "../catalog/create-catalog.js";
import { redactUrl } from "../catalog/remote/redact-url.js";
import type { Catalog, SkillRoot } from "../catalog/types.js";
import type { Diagnostic } from "../spec/types.js";
import { type CliRoots, cliCatalogOptions } from "./cli-roots.js";
import type { CliIo } from "./command.js";

/**
 * The error diagnostics about explicit `--root` directories (a root that does not exist, or cannot be
 * read): the user's mistake, so a command fails on them. Always empty without `--root` flags (a missing
 * default root is just empty).
 *
 * @param rootFlags - the `--root` values as parsed (undefined or empty: default roots are in use)
 * @param roots - the roots the catalog scanned ({@link cliRoots} of `rootFlags`)
 * @param diagnostics - the catalog's diagnostics (`catalog.diagnostics()`)
 */
export function missingRootErrors(
  rootFlags: readonly string[] | undefined,
  roots: readonly SkillRoot[],
  diagnostics: readonly Diagnostic[],
): Diagnostic[] {
  if (rootFlags === undefined || rootFlags.length === 0) return [];
  // A remote root that could not be had is reported under the spec as written.
  const explicit = new Set([...roots.map((root) => root.path), ...rootFlags.map(redactUrl)]);
  return diagnostics.filter((d) => d.severity === "error" && explicit.has(d.path));
}

/**
 * Writes `skillrt <command>: <message>` on stderr for each of `errors` (from {@link missingRootErrors});
 * returns the exit code they call for: 1 when there is any, else 0.
 */
export function reportMissingRoots(command: string, errors: readonly Diagnostic[], io: CliIo): 0 | 1 {
  for (const d of errors) io.stderr.write(`skillrt ${command}: ${d.message}\n`);
  return errors.length > 0 ? 1 : 0;
}

/**
 * Opens the catalog of a command's roots and reports explicit `--root` directories that are missing and
 * remote roots that could not be fetched (the user's mistake: exit code 1, while what the other roots
 * hold is still served); returns the remote roots' origins too.
 */
export async function openCliCatalog(
  command: string,
  rootFlags: readonly string[] | undefined,
  io: CliIo,
  refresh = false,
): Promise<{ catalog: Catalog; code: 0 | 1; origins: CliRoots["origins"] }> {
  const options = await cliCatalogOptions(rootFlags, io, refresh);
  const catalog = await createCatalog(options);
  const code = reportMissingRoots(
    command,
    missingRootErrors(rootFlags, options.roots, [...options.diagnostics, ...catalog.diagnostics()]),
    io,
  );
  for (const d of options.diagnostics)
    if (d.severity === "warning") io.stderr.write(`skillrt ${command}: ${d.message}\n`);
  return { catalog, code, origins: options.origins };
}
