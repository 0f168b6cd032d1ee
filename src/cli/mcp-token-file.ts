/**
 * The bearer token of `skillrt mcp --http` (and of `skillrt serve`), kept in a file only its owner can read: generated at start
 * (32 random bytes, base64url) into the user's state directory, or read from (or, when missing, created
 * at) the path `--token-file` names. The token itself is never printed: clients read the file.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { MIN_MCP_TOKEN_LENGTH } from "../util/http-guard.js";
import { checkCacheDir, writeCacheFile } from "../util/trusted-cache.js";

const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;
/** Largest token file read (a token is 43 characters; this is far above any real one). */
const MAX_TOKEN_FILE_BYTES = 4096;

/** A fresh token: 32 bytes from the OS's CSPRNG, base64url (43 characters). */
export function generateMcpToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The token, or a message saying what is wrong with the file and how to fix it. */
export type TokenFileRead = { ok: true; token: string } | { ok: false; message: string };

/**
 * Reads the token in `file`: it must be a regular file (not a symlink), owned by the current user, readable
 * by nobody else (no group or other bits), holding one token of at least {@link MIN_MCP_TOKEN_LENGTH}
 * printable characters. Never throws; undefined when the file does not exist.
 */
export function readMcpTokenFile(file: string): TokenFileRead | undefined {
  let fd: number;
  try {
    // No symlink followed, and a FIFO planted at the path does not block the open.
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP")
      return { ok: false, message: `--token-file ${file} is a symlink; give the file itself` };
    return { ok: false, message: `--token-file ${file} cannot be read (${code})` };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { ok: false, message: `--token-file ${file} is not a regular file` };
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid)
      return {
        ok: false,
        message: `--token-file ${file} is owned by uid ${stat.uid}, not by you (uid ${uid}): whoever owns it knows the token. Use a file of your own (mode 600)`,
      };
    if (uid !== undefined && (stat.mode & 0o077) !== 0)
      return {
        ok: false,
        message: `--token-file ${file} can be read or written by other users (mode ${(stat.mode & 0o777).toString(8)}): run 'chmod 600 ${file}' and choose a new token`,
      };
    if (stat.size > MAX_TOKEN_FILE_BYTES)
      return {
        ok: false,
        message: `--token-file ${file} is over ${MAX_TOKEN_FILE_BYTES} bytes: it should hold one token`,
      };
    const token = fs.readFileSync(fd, "utf8").trim();
    if (!/^[\x21-\x7e]+$/.test(token))
      return {
        ok: false,
        message: `--token-file ${file} must hold one token: printable ASCII characters on one line, no spaces`,
      };
    if (token.length < MIN_MCP_TOKEN_LENGTH)
      return {
        ok: false,
        message: `the token in --token-file ${file} is shorter than ${MIN_MCP_TOKEN_LENGTH} characters; delete the file and skillrt writes a random one there`,
      };
    return { ok: true, token };
  } catch (error) {
    return {
      ok: false,
      message: `--token-file ${file} cannot be read (${(error as NodeJS.ErrnoException).code})`,
    };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Creates `file` holding `token`, mode 0600, refusing anything already at that path (`wx`: no file is
 * replaced and no symlink followed). Throws with the fs error.
 */
export function createMcpTokenFile(file: string, token: string): void {
  const fd = fs.openSync(file, "wx", 0o600);
  try {
    fs.writeSync(fd, `${token}\n`);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `token` to `<prefix>-<port>.token` in `stateDir` (the cache rule: a directory of the user's own
 * no one else can write, created 0700; the file 0600, written whole) and returns the file's path, or a
 * message saying why it cannot.
 */
export function writeStateTokenFile(
  stateDir: string,
  port: number,
  token: string,
  /** The file's name before `-<port>.token` (`serve-http` for `skillrt serve`). Default `mcp-http`. */
  prefix = "mcp-http",
): { ok: true; file: string } | { ok: false; message: string } {
  const trust = checkCacheDir(stateDir, { create: true });
  if (!trust.ok)
    return {
      ok: false,
      message: `cannot keep the bearer token in ${stateDir}: ${trust.reason}. Fix its owner and mode (0700), set SKILLRT_STATE_DIR, or give --token-file PATH`,
    };
  const name = `${prefix}-${port}.token`;
  try {
    writeCacheFile(stateDir, name, [`${token}\n`]);
  } catch (error) {
    return {
      ok: false,
      message: `cannot write the bearer token to ${path.join(stateDir, name)}: ${(error as Error).message}. Give --token-file PATH`,
    };
  }
  return { ok: true, file: path.join(stateDir, name) };
}
