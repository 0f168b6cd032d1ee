/**
 * The bearer token of a local HTTP server of the CLI (`skillrt mcp --http`, `skillrt serve`), from its
 * flags: `--token-env NAME`, `--token-file PATH` (read, or created when missing), or none (a random token
 * kept in the state directory while the server runs), or `--no-auth`. Decided before the server listens;
 * the file is written once the port is known, before the URL is printed.
 */
import os from "node:os";
import path from "node:path";
import { defaultStateDir } from "../catalog/trust-file.js";
import { isLoopbackHost, MIN_MCP_TOKEN_LENGTH } from "../util/http-guard.js";
import { cliHome } from "./cli-home.js";
import type { CliIo } from "./command.js";
import {
  createMcpTokenFile,
  generateMcpToken,
  readMcpTokenFile,
  writeStateTokenFile,
} from "./mcp-token-file.js";

/** Where the token comes from and where it is to be kept. */
export interface BearerTokenPlan {
  /** The token every request must send; undefined with `--no-auth`. */
  token: string | undefined;
  /** A `--token-file` that did not exist: the generated token is written there. */
  createFile?: string;
  /** No token flag: the generated token is kept in this state directory while the server runs. */
  stateDir?: string;
  /** A `--token-file` that held the token. */
  readFrom?: string;
}

/** The token flags of a command. */
export interface BearerTokenFlags {
  host: string;
  tokenEnv: string | undefined;
  tokenFile: string | undefined;
  noAuth: boolean;
}

/** Reads the flags into a plan, or the usage error to print. Writes nothing. */
export function planBearerToken(flags: BearerTokenFlags, io: CliIo): BearerTokenPlan | { error: string } {
  let token: string | undefined;
  if (flags.tokenEnv !== undefined) {
    token = io.env[flags.tokenEnv];
    if (token === undefined || token === "")
      return { error: `--token-env ${flags.tokenEnv}: that environment variable is not set` };
    if (token.length < MIN_MCP_TOKEN_LENGTH)
      return {
        error: `--token-env ${flags.tokenEnv}: the token is shorter than ${MIN_MCP_TOKEN_LENGTH} characters (e.g. openssl rand -base64 32)`,
      };
  }
  // Off loopback the token crosses the network: the user chooses it (and where it is kept) explicitly.
  if (!isLoopbackHost(flags.host) && token === undefined && flags.tokenFile === undefined)
    return {
      error: `--host ${flags.host} is reachable from other machines: give the bearer token explicitly with --token-file PATH or --token-env NAME (--no-auth is for loopback only; plain HTTP: put TLS in front)`,
    };
  if (token !== undefined) return { token };
  if (flags.tokenFile !== undefined) {
    const file = path.resolve(io.cwd, flags.tokenFile);
    const read = readMcpTokenFile(file);
    if (read === undefined) return { token: generateMcpToken(), createFile: file };
    if (!read.ok) return { error: read.message };
    return { token: read.token, readFrom: file };
  }
  if (flags.noAuth) return { token: undefined };
  const stateDir = defaultStateDir(io.env, cliHome(io.env).home ?? os.homedir());
  if (stateDir === undefined)
    return {
      error: "no place for the bearer token file (set SKILLRT_STATE_DIR or HOME), or give --token-file PATH",
    };
  return { token: generateMcpToken(), stateDir };
}

/**
 * Writes the plan's token file now that the server listens on `port` (state files are named
 * `<prefix>-<port>.token`). Returns the line to log (undefined with `--no-auth`) and the file to remove at
 * exit, or the message saying why it could not.
 */
export function keepBearerToken(
  plan: BearerTokenPlan,
  port: number,
  prefix: string,
): { ok: true; note: string | undefined; removeAtExit?: string } | { ok: false; message: string } {
  if (plan.createFile !== undefined) {
    try {
      createMcpTokenFile(plan.createFile, plan.token!);
    } catch (error) {
      return {
        ok: false,
        message: `cannot write the bearer token to ${plan.createFile} (${(error as NodeJS.ErrnoException).code}); give --token-file a path in a directory of yours`,
      };
    }
    return {
      ok: true,
      note: `bearer token written to ${plan.createFile} (mode 600); clients send 'Authorization: Bearer <its contents>'`,
    };
  }
  if (plan.stateDir !== undefined) {
    const written = writeStateTokenFile(plan.stateDir, port, plan.token!, prefix);
    if (!written.ok) return written;
    return {
      ok: true,
      note: `bearer token in ${written.file} (mode 600, removed at exit); clients send 'Authorization: Bearer <its contents>'`,
      removeAtExit: written.file,
    };
  }
  if (plan.readFrom !== undefined) return { ok: true, note: `bearer token from ${plan.readFrom}` };
  return { ok: true, note: undefined };
}
