/**
 * The user's trust file (`$SKILLRT_STATE_DIR`, else `$XDG_STATE_HOME/skillrt`, else
 * `~/.local/state/skillrt`, file `trust.json`): read and written by the cache rule — a directory of the
 * user's own no one else can write to, the file 0600, written whole through a temporary file renamed into
 * place. A file that is missing, unreadable or in a directory others could write to trusts nothing; one
 * that is there but corrupt trusts nothing either, and is said to be (never silently read as empty, never
 * written over).
 */
import os from "node:os";
import path from "node:path";
import { TrustFileError, trustFileProblemText } from "../errors/trust-file-error.js";
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

/** The trust file's records, or what is wrong with a file that is there but is not a trust file. */
function parseTrustFile(stateDir: string): { records: TrustRecord[] } | { problem: string } {
  const bytes = readCacheFile(stateDir, FILE_NAME, MAX_TRUST_FILE_BYTES);
  if (bytes === undefined) return { records: [] };
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    return { problem: `invalid JSON: ${(error as Error).message}` };
  }
  const parsed = TrustFile.safeParse(json);
  if (parsed.success) return { records: parsed.data.roots };
  const issue = parsed.error.issues[0];
  return {
    problem: `not a trust file: ${issue === undefined ? "" : `${issue.path.join(".") || "(root)"}: ${issue.message}`}`,
  };
}

/**
 * The trust file in `stateDir` as read: its records, or (a file that exists but is not JSON or not a trust
 * file) no records and the sentence saying so, for a warning. A missing file, or one the cache rule refuses
 * (see `readCacheFile`), has no records and no problem. Never throws.
 */
export function readTrustFile(stateDir: string): { records: TrustRecord[]; problem?: string } {
  const read = parseTrustFile(stateDir);
  return "records" in read
    ? read
    : { records: [], problem: trustFileProblemText(trustFilePath(stateDir), read.problem) };
}

/**
 * The records of the trust file in `stateDir`; `[]` when there is none or the cache rule refuses it.
 * Throws {@link TrustFileError} when the file exists but is corrupt: never read as empty (a write based on
 * that would drop every record in it).
 */
export function readTrustRecords(stateDir: string): TrustRecord[] {
  const read = parseTrustFile(stateDir);
  if ("records" in read) return read.records;
  throw new TrustFileError({ file: trustFilePath(stateDir), problem: read.problem });
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
