/**
 * A real, throwaway PostgreSQL cluster for tests and benchmarks: `initdb` + `pg_ctl` in a temporary
 * directory, listening on 127.0.0.1 on a free port, stopped and deleted afterwards. Runs the server as the
 * `postgres` system user when the caller is root (PostgreSQL refuses to run as root).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** What identifies a running cluster (JSON-serialisable, so another process can stop it). */
export interface PostgresClusterInfo {
  /** `postgres://…` URL of the `postgres` database as the superuser. */
  url: string;
  host: string;
  port: number;
  /** Temporary directory holding the data directory, the socket and the server log. */
  dir: string;
  dataDir: string;
  /** Directory of the server binaries. */
  bin: string;
  /** System user the server runs as, when not the current user. */
  user?: string;
}

/** A started cluster. */
export interface PostgresCluster extends PostgresClusterInfo {
  /** Stops the server (fast shutdown) and deletes its directory. Idempotent. */
  stop(): Promise<void>;
}

/** Stops the cluster described by `info` (fast shutdown) and deletes its directory. */
export async function stopPostgresCluster(info: PostgresClusterInfo): Promise<void> {
  try {
    if (existsSync(path.join(info.dataDir, "postmaster.pid"))) {
      runAs(info.user, [path.join(info.bin, "pg_ctl"), "-D", info.dataDir, "-m", "fast", "-w", "stop"]);
    }
  } finally {
    await rm(info.dir, { recursive: true, force: true });
  }
}

/** Where the PostgreSQL server binaries are, or why they cannot be used. */
export function findPostgresBin(): { bin: string } | { reason: string } {
  const explicit = process.env["SKILLRT_PG_BIN"];
  const candidates: string[] = explicit === undefined ? [] : [explicit];
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(base, v, "bin")));
  }
  for (const dir of candidates) {
    if (existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"))) return { bin: dir };
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim() !== "") return { bin: path.dirname(which.stdout.trim()) };
  return { reason: "PostgreSQL server binaries (initdb, pg_ctl) not found; install Debian's postgresql" };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs `argv` as `user` (via runuser) when given, else as the current user. Throws with its output. */
function runAs(user: string | undefined, argv: string[]): string {
  const [file, ...args] = user === undefined ? argv : ["runuser", "-u", user, "--", ...argv];
  try {
    return execFileSync(file ?? "", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${argv.join(" ")} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

/** Options of {@link startPostgresCluster}. */
export interface StartPostgresOptions {
  /** Turn off fsync (faster tests; never for figures that claim durability). Default false. */
  noFsync?: boolean;
  /** `max_connections`. Default 200. */
  maxConnections?: number;
}

/**
 * Starts a fresh cluster. Throws when the binaries are missing (check {@link findPostgresBin} first) or
 * the server does not start.
 */
export async function startPostgresCluster(options: StartPostgresOptions = {}): Promise<PostgresCluster> {
  const found = findPostgresBin();
  if ("reason" in found) throw new Error(found.reason);
  const user = process.getuid?.() === 0 ? "postgres" : undefined;
  const dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-pg-"));
  const dataDir = path.join(dir, "data");
  if (user !== undefined) {
    const uid = Number(runAs(undefined, ["id", "-u", user]).trim());
    const gid = Number(runAs(undefined, ["id", "-g", user]).trim());
    await chown(dir, uid, gid);
  }
  runAs(user, [
    path.join(found.bin, "initdb"),
    "-D",
    dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "--no-sync",
    "-E",
    "UTF8",
    "--locale=C",
  ]);
  const settings = [
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    `max_connections = ${options.maxConnections ?? 200}`,
    `fsync = ${options.noFsync === true ? "off" : "on"}`,
    "shared_buffers = 32MB",
  ];
  const conf = path.join(dir, "extra.conf");
  await writeFile(conf, `${settings.join("\n")}\n`);
  if (user !== undefined) runAs(undefined, ["chown", `${user}:`, conf]);
  runAs(user, ["sh", "-c", `echo "include '${conf}'" >> '${path.join(dataDir, "postgresql.conf")}'`]);

  let port = 0;
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    port = await freePort();
    try {
      runAs(user, [
        path.join(found.bin, "pg_ctl"),
        "-D",
        dataDir,
        "-o",
        `-p ${port}`,
        "-l",
        path.join(dir, "server.log"),
        "-w",
        "-t",
        "30",
        "start",
      ]);
      lastError = undefined;
      break;
    } catch (error) {
      lastError = error; // most likely the port was taken between probing and binding: try another
    }
  }
  if (lastError !== undefined) {
    await rm(dir, { recursive: true, force: true });
    throw lastError;
  }
  const info: PostgresClusterInfo = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    host: "127.0.0.1",
    port,
    dir,
    dataDir,
    bin: found.bin,
    ...(user === undefined ? {} : { user }),
  };
  let stopped: Promise<void> | undefined;
  return {
    ...info,
    stop() {
      stopped ??= stopPostgresCluster(info);
      return stopped;
    },
  };
}

/**
 * Stops the cluster's server (fast shutdown) and keeps its data: {@link startPostgresServer} starts it again
 * on the same port, for tests of a store that goes away and comes back.
 */
export function stopPostgresServer(info: PostgresClusterInfo): void {
  runAs(info.user, [path.join(info.bin, "pg_ctl"), "-D", info.dataDir, "-m", "fast", "-w", "stop"]);
}

/** Starts the server of a cluster stopped with {@link stopPostgresServer} again, on its port. */
export function startPostgresServer(info: PostgresClusterInfo): void {
  runAs(info.user, [
    path.join(info.bin, "pg_ctl"),
    "-D",
    info.dataDir,
    "-o",
    `-p ${info.port}`,
    "-l",
    path.join(info.dir, "server.log"),
    "-w",
    "-t",
    "30",
    "start",
  ]);
}
