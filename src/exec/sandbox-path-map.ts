/**
 * How host paths appear inside an AI SDK sandbox: every host path `P` a run mounts is mirrored at
 * `<root>P` in the sandbox. Commands, working directories and environment values are rewritten host →
 * sandbox before a run, and the run's output sandbox → host after it, so the model only ever sees the
 * host paths the rest of skillrt uses.
 */
import path from "node:path";

/** The mapping of one run's mounts. */
export interface SandboxPathMap {
  /** Absolute sandbox directory the host tree is mirrored under. */
  readonly root: string;
  /** The sandbox path of an absolute host path. */
  toSandbox(hostPath: string): string;
  /** `text` with every mounted host path replaced by its sandbox path. */
  mapText(text: string): string;
  /** `text` with every sandbox path under `root` replaced by its host path. */
  unmapText(text: string): string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A map for `sources` (absolute host paths) under the sandbox directory `root`. Only whole path components
 * are rewritten: `/tmp/ws` in `/tmp/ws/out` and `/tmp/ws` alone, never in `/tmp/wsx`.
 */
export function createSandboxPathMap(root: string, sources: string[]): SandboxPathMap {
  const base = root.replace(/\/+$/, "");
  const unique = [...new Set(sources.map((s) => path.resolve(s)))].filter((s) => s !== "/");
  // Longest first, so a nested mount wins over its parent in one pass.
  unique.sort((a, b) => b.length - a.length);
  const forward =
    unique.length === 0
      ? undefined
      : new RegExp(`(${unique.map(escapeRegExp).join("|")})(?=$|[/\\s"'\`:;=),|&<>])`, "g");
  const backward = new RegExp(`${escapeRegExp(base)}(?=/)`, "g");
  return {
    root: base,
    toSandbox: (hostPath) => `${base}${path.resolve(hostPath)}`,
    mapText: (text) => (forward === undefined ? text : text.replace(forward, (m) => `${base}${m}`)),
    unmapText: (text) => text.replace(backward, ""),
  };
}

/** `value` quoted for a POSIX shell. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}
