import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultCacheDir } from "../catalog/cache-dir.js";
import { readCacheFile, writeCacheFile } from "../util/trusted-cache.js";

/** How long a remembered successful probe is trusted even when nothing it depends on changed. */
const PROBE_TTL_MS = 24 * 60 * 60 * 1000;

/** Kernel settings that decide whether unprivileged bubblewrap works (absent ones read as ""). */
const SYSCTLS = [
  "/proc/sys/kernel/unprivileged_userns_clone",
  "/proc/sys/user/max_user_namespaces",
  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
];

/**
 * What a successful `bwrap … true` probe depends on: the bwrap binary (resolved on PATH; its dev,
 * inode, size and times), the kernel (release and build), the user-namespace sysctls, the user, and the
 * probe's own arguments. Undefined when the binary cannot be found (then nothing is remembered).
 */
function probeKey(bwrapPath: string, uid: number): string | undefined {
  const binary = resolveOnPath(bwrapPath);
  if (binary === undefined) return undefined;
  const stat = fs.statSync(binary, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  const sysctls = SYSCTLS.map((file) => {
    try {
      return fs.readFileSync(file, "utf8").trim();
    } catch {
      return "";
    }
  });
  const parts = [
    binary,
    stat.dev,
    stat.ino,
    stat.size,
    stat.mtimeMs,
    stat.ctimeMs,
    os.release(),
    os.version(),
    ...sysctls,
    process.getuid?.() ?? "",
    uid,
  ];
  // The parts themselves, not a digest of them: the file is the user's own, and loading node:crypto
  // would cost every `skillrt run` several milliseconds.
  return JSON.stringify(parts);
}

function resolveOnPath(command: string): string | undefined {
  if (command.includes("/")) return path.resolve(command);
  for (const dir of (process.env["PATH"] ?? "/usr/bin:/bin").split(":")) {
    if (dir === "") continue;
    const candidate = path.join(dir, command);
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile() === true) return candidate;
  }
  return undefined;
}

const CACHE_FILE = "sandbox-probe.json";

/** Far above a real probe file (one entry of a few hundred bytes). */
const MAX_PROBE_FILE_BYTES = 64 * 1024;

/** What a successful probe learnt about the bwrap binary, remembered with it. */
export interface SandboxFacts {
  /** Whether this bwrap knows `--size` for a sized `/tmp` tmpfs (0.5+). */
  tmpfsSize: boolean;
}

/**
 * The facts of a successful probe of `bwrapPath` when one was remembered (in the user's cache
 * directory, see `defaultCacheDir`, when it is the user's own and private; `SKILLRT_CACHE=0` switches it
 * off) under the same binary, kernel and
 * settings, less than a day ago; else undefined. Failures are never remembered: they are probed again
 * every time.
 */
export function rememberedSandboxProbe(
  bwrapPath: string,
  uid: number,
  cacheDir = defaultCacheDir(),
): SandboxFacts | undefined {
  if (cacheDir === undefined) return undefined;
  try {
    const key = probeKey(bwrapPath, uid);
    if (key === undefined) return undefined;
    // By the cache rule (`util/trusted-cache.ts`): another user's directory or file, a link or a FIFO
    // is not read.
    const bytes = readCacheFile(cacheDir, CACHE_FILE, MAX_PROBE_FILE_BYTES);
    if (bytes === undefined) return undefined;
    const data: unknown = JSON.parse(bytes.toString("utf8"));
    if (typeof data !== "object" || data === null) return undefined;
    const entry = (data as Record<string, unknown>)[key];
    if (typeof entry !== "object" || entry === null) return undefined;
    const { at, tmpfsSize } = entry as { at?: unknown; tmpfsSize?: unknown };
    if (typeof at !== "number" || typeof tmpfsSize !== "boolean") return undefined;
    return at <= Date.now() && Date.now() - at < PROBE_TTL_MS ? { tmpfsSize } : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers a successful probe and its facts (see {@link rememberedSandboxProbe}); failures to write are ignored. */
export function rememberSandboxProbe(
  bwrapPath: string,
  uid: number,
  facts: SandboxFacts,
  cacheDir = defaultCacheDir(),
): void {
  if (cacheDir === undefined) return;
  try {
    const key = probeKey(bwrapPath, uid);
    if (key === undefined) return;
    writeCacheFile(cacheDir, CACHE_FILE, [
      JSON.stringify({ [key]: { at: Date.now(), tmpfsSize: facts.tmpfsSize } }),
    ]);
  } catch {
    // Not remembered: the next process probes again.
  }
}
