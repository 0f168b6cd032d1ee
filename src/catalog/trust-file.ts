/**
 * The user's trust file (`$SKILLRT_STATE_DIR`, else `$XDG_STATE_HOME/skillrt`, else
 * `~/.local/state/skillrt`, file `trust.json`): read and written by the cache rule — a directory of the
 * user's own no one else can write to, the file 0600, written whole through a temporary file renamed into
 * place. A file that is missing, unreadable, malformed or in a directory others could write to trusts
 * nothing.
 */
import os from "node:os";
import path from "node:path";
import { checkCacheDir, readCacheFile, writeCacheFile } from "../util/trusted-cache.js";
import { sameOrigin } from "./is-trusted.js";
import { TrustFile, type TrustOrigin, type TrustRecord } from "./trust-record.js";

const FILE_NAME = "trust.json";
/** Largest trust file read (far above any real one). */
const MAX_TRUST_FILE_BYTES = 8 * 1024 * 1024;

/** The directory of the user's trust file, or undefined without a home directory. */
export function defaultStateDir(
  env: Record<string, string | undefined> = process.env,
  home: string = os.homedir(),
): string | undefined {
  const explicit = env["SKILLRT_STATE_DIR"];
  if (explicit !== undefined && explicit !== "") return path.resolve(explicit);
  const xdg = env["XDG_STATE_HOME"];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, "skillrt");
  if (home === "") return undefined;
  return path.join(home, ".local", "state", "skillrt");
}

/** The path of the trust file in `stateDir`. */
export function trustFilePath(stateDir: string): string {
  return path.join(stateDir, FILE_NAME);
}

/** The records of the trust file in `stateDir`; `[]` when there is none or it cannot be trusted. Never throws. */
export function readTrustRecords(stateDir: string): TrustRecord[] {
  const bytes = readCacheFile(stateDir, FILE_NAME, MAX_TRUST_FILE_BYTES);
  if (bytes === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    return [];
  }
  const parsed = TrustFile.safeParse(json);
  return parsed.success ? parsed.data.roots : [];
}

/** Why the trust file in `stateDir` cannot be used, or undefined when it can. */
export function trustDirProblem(stateDir: string): string | undefined {
  const check = checkCacheDir(stateDir);
  return check.ok ? undefined : `${check.dir}: ${check.reason}`;
}

/** Writes `records` as the whole trust file in `stateDir` (created 0700). Throws on failure. */
export function writeTrustRecords(stateDir: string, records: readonly TrustRecord[]): void {
  const file: TrustFile = { version: 1, roots: [...records] };
  writeCacheFile(stateDir, FILE_NAME, [`${JSON.stringify(file, null, 2)}\n`]);
}

/** Records trust of `origin` at `digest` (replacing an older record of it) and writes the file. */
export function recordTrust(
  stateDir: string,
  origin: TrustOrigin,
  digest: string,
  now = new Date(),
): TrustRecord {
  const record: TrustRecord = { origin, digest, trustedAt: now.toISOString() };
  const others = readTrustRecords(stateDir).filter((r) => !sameOrigin(r.origin, origin));
  writeTrustRecords(stateDir, [...others, record]);
  return record;
}

/** Removes the record of `origin`; whether there was one. */
export function revokeTrust(stateDir: string, origin: TrustOrigin): boolean {
  const records = readTrustRecords(stateDir);
  const kept = records.filter((r) => !sameOrigin(r.origin, origin));
  if (kept.length === records.length) return false;
  writeTrustRecords(stateDir, kept);
  return true;
}
