/**
 * Plugins inside a skill root, the way Claude Code and Codex ship skills: a folder holding a plugin
 * manifest (`.claude-plugin/plugin.json` or `.codex-plugin/plugin.json`) is a plugin, and the skills in
 * its skill folders (`skills/`, and the `skills` paths its manifest names) belong to it (`plugin:skill`);
 * other folders of the plugin (drafts, variants) hold plain skills, as Claude Code and Codex load only those. A marketplace manifest (`.claude-plugin/marketplace.json`,
 * Codex's `.agents/plugins/marketplace.json`) names the plugins of its local entries, so a plugin listed
 * there with no manifest of its own (`strict: false`) is still one.
 *
 * Found from the listings the scan already made (no extra directory reads); only the few manifest files
 * are read, each capped and parsed as JSON. A manifest that cannot be read or parsed names no plugin and
 * gives one warning: the skills below stay in the catalog under their own names.
 */
import fs from "node:fs";
import path from "node:path";
import type { Diagnostic } from "../spec/types.js";
import type { KnownListing } from "./list-dirs.js";

/** Largest manifest read (a plugin.json or marketplace.json is a few KB). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** A plugin name as the formats allow it: kebab-case words (dots and underscores tolerated). */
const PLUGIN_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/** One plugin folder. */
export interface PluginDir {
  /** The plugin's folder (real path). */
  dir: string;
  /**
   * The folders its skills are in: `skills/` and the paths its manifest's (or marketplace entry's)
   * `skills` names, each inside the plugin. A skill elsewhere in the plugin's folder is not the plugin's.
   */
  skillDirs: string[];
  /** The plugin's name (the manifest's `name`, else the marketplace entry's, else the folder's). */
  name: string;
  /** The manifest that made the folder a plugin. */
  manifest: string;
  format: "claude" | "codex" | "marketplace";
}

/** What {@link findPlugins} returns. */
export interface FoundPlugins {
  /** Plugin folders by real path. */
  byDir: Map<string, PluginDir>;
  diagnostics: Diagnostic[];
}

const MANIFESTS = [
  { folder: ".claude-plugin", file: "plugin.json", format: "claude" },
  { folder: ".codex-plugin", file: "plugin.json", format: "codex" },
] as const;
const MARKETPLACES = [
  { folder: ".claude-plugin", file: path.join(".claude-plugin", "marketplace.json") },
  { folder: ".agents", file: path.join(".agents", "plugins", "marketplace.json") },
] as const;

/** True when some listing may hold a plugin or marketplace manifest (the cheap test before {@link findPlugins}). */
export function mayHavePlugins(listings: readonly ReadonlyMap<string, KnownListing>[]): boolean {
  for (const root of listings)
    for (const listing of root.values())
      if (
        listing.names.includes(".claude-plugin") ||
        listing.names.includes(".codex-plugin") ||
        listing.names.includes(".agents")
      )
        return true;
  return false;
}

/** Every plugin folder the listings show (see the module comment). */
export function findPlugins(listings: readonly ReadonlyMap<string, KnownListing>[]): FoundPlugins {
  const byDir = new Map<string, PluginDir>();
  const diagnostics: Diagnostic[] = [];
  const fromMarketplaces: [dir: string, plugin: PluginDir][] = [];
  for (const root of listings) {
    for (const [dir, listing] of root) {
      for (const kind of MANIFESTS) {
        if (!listing.names.includes(kind.folder)) continue;
        const file = path.join(dir, kind.folder, kind.file);
        const manifest = readManifest(file, diagnostics);
        if (manifest === undefined || byDir.has(dir)) continue;
        byDir.set(dir, {
          dir,
          skillDirs: skillDirsOf(dir, manifest.skills),
          name: pluginName(manifest, path.basename(dir)),
          manifest: file,
          format: kind.format,
        });
      }
      for (const kind of MARKETPLACES) {
        if (!listing.names.includes(kind.folder)) continue;
        const file = path.join(dir, kind.file);
        const manifest = readManifest(file, diagnostics);
        if (manifest !== undefined) fromMarketplaces.push(...marketplacePlugins(dir, file, manifest));
      }
    }
  }
  // A plugin's own manifest names it; a marketplace entry names only a folder that has none.
  for (const [dir, plugin] of fromMarketplaces) if (!byDir.has(dir)) byDir.set(dir, plugin);
  return { byDir, diagnostics };
}

/**
 * The plugin a skill folder belongs to: the nearest plugin folder at or above `dir` (no higher than
 * `root`) that has `dir` in one of its skill folders.
 */
export function pluginOf(
  dir: string,
  root: string,
  plugins: ReadonlyMap<string, PluginDir>,
): PluginDir | undefined {
  for (let at = dir; ; ) {
    const plugin = plugins.get(at);
    if (plugin?.skillDirs.some((d) => dir === d || dir.startsWith(d + path.sep)) === true) return plugin;
    if (at === root) return undefined;
    const up = path.dirname(at);
    if (up === at || !at.startsWith(root)) return undefined;
    at = up;
  }
}

/** The parsed manifest, or undefined (missing: silently; unreadable or not JSON: one warning). */
function readManifest(file: string, diagnostics: Diagnostic[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    // No link is followed to the manifest itself, and no FIFO or device is opened.
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    if (!stat.isFile()) throw Object.assign(new Error("not a regular file"), { code: "ENOTREG" });
    if (stat.size > MAX_MANIFEST_BYTES)
      throw new Error(`over the ${MAX_MANIFEST_BYTES}-byte limit for a plugin manifest`);
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    diagnostics.push(manifestWarning(file, (error as Error).message));
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      return value as Record<string, unknown>;
    diagnostics.push(manifestWarning(file, "it is not a JSON object"));
  } catch (error) {
    diagnostics.push(manifestWarning(file, `it is not valid JSON (${(error as Error).message})`));
  }
  return undefined;
}

function manifestWarning(file: string, why: string): Diagnostic {
  return {
    code: "plugin-manifest-invalid",
    severity: "warning",
    message: `The plugin manifest ${file} was not read: ${why}. The skills below it keep their own names.`,
    path: file,
  };
}

/** The manifest's `name` when it is a usable plugin name, else `fallback` (the folder's name). */
function pluginName(manifest: Record<string, unknown>, fallback: string): string {
  const name = manifest.name;
  return typeof name === "string" && PLUGIN_NAME.test(name) ? name : fallback;
}

/** The local plugin folders a marketplace manifest lists, with their names (entries elsewhere are skipped). */
function marketplacePlugins(
  base: string,
  file: string,
  manifest: Record<string, unknown>,
): [string, PluginDir][] {
  const entries = Array.isArray(manifest.plugins) ? manifest.plugins : [];
  const metadata = manifest.metadata as Record<string, unknown> | undefined;
  const pluginRoot = typeof metadata?.pluginRoot === "string" ? metadata.pluginRoot : undefined;
  const found: [string, PluginDir][] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== "object") continue;
    const { name, source, skills } = entry as Record<string, unknown>;
    if (typeof name !== "string" || !PLUGIN_NAME.test(name)) continue;
    // Claude Code: "./plugins/x" (or a bare name under metadata.pluginRoot); Codex: { source: "local", path }.
    let local: string | undefined;
    if (typeof source === "string") local = source;
    else if (source !== null && typeof source === "object") {
      const s = source as Record<string, unknown>;
      if ((s.source === "local" || s.type === "local") && typeof s.path === "string") local = s.path;
    }
    if (local === undefined || /^[a-z][a-z0-9+.-]*:/i.test(local)) continue;
    const relative =
      pluginRoot !== undefined && !local.startsWith(".") ? path.join(pluginRoot, local) : local;
    const dir = path.resolve(base, relative);
    // A marketplace names folders of its own tree only.
    if (dir !== base && !dir.startsWith(base + path.sep)) continue;
    found.push([
      dir,
      { dir, skillDirs: skillDirsOf(dir, skills), name, manifest: file, format: "marketplace" },
    ]);
  }
  return found;
}

/** `<plugin>/skills` and the `skills` paths (a string or a list) a manifest names inside the plugin. */
function skillDirsOf(dir: string, declared: unknown): string[] {
  const dirs = [path.join(dir, "skills")];
  const paths = typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared : [];
  for (const p of paths) {
    if (typeof p !== "string" || p === "" || path.isAbsolute(p)) continue;
    const resolved = path.resolve(dir, p);
    // A path leaving the plugin names nothing of it.
    if (resolved === dir || resolved.startsWith(dir + path.sep)) dirs.push(resolved);
  }
  return dirs;
}
