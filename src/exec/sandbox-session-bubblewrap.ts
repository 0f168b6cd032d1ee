/**
 * skillrt's bubblewrap sandbox as an AI SDK `Experimental_SandboxSession`: a local sandbox for AI SDK users
 * (pass it as `experimental_sandbox`) and for {@link createSandboxSessionExecutor}. Every command runs in a
 * fresh bubblewrap with the `sandbox` executor's isolation (all namespaces unshared, no network,
 * capabilities dropped, uid 1000, read-only system, private `/tmp`, rlimits) plus one writable directory —
 * a host directory mounted at `mountPoint`, the session's base directory. The file API works on that
 * directory from the host, resolving paths and symbolic links as the sandbox sees them and refusing any
 * path that leaves it.
 */
import type { ChildProcess } from "node:child_process";
import { constants, lstatSync, readlinkSync } from "node:fs";
import { lstat, mkdir, mkdtemp, open, readdir, realpath, rm, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import type {
  Experimental_SandboxDirectoryEntry as SandboxDirectoryEntry,
  Experimental_SandboxProcess as SandboxProcess,
  Experimental_SandboxSession as SandboxSession,
} from "ai";
import { childProcess } from "../util/child-process.js";
import { DEFAULT_EXEC_PATH } from "./executor.js";
import { exitCodeOf } from "./exit-code-of.js";
import { DEFAULT_LIMITS, type ExecLimits, withLimits } from "./limits.js";
import { killProcessGroup } from "./process-tree.js";
import { isolationArgs, systemMountArgs } from "./sandbox-executor.js";
import { writeFileNoFollow } from "./write-file-no-follow.js";

/** Options of {@link createBubblewrapSandboxSession}. */
export interface BubblewrapSandboxSessionOptions {
  /** Host directory backing the writable directory. Default: a fresh private temporary directory, deleted by `stop()`. */
  dir?: string;
  /** Absolute path of the writable directory inside the sandbox (the base directory). Default `/workspace`. */
  mountPoint?: string;
  /** Path of the bwrap binary. Default `bwrap`. */
  bwrapPath?: string;
  /** uid and gid inside the sandbox. Default 1000. */
  uid?: number;
  /** Default environment of every command (a command's own `env` wins). `PATH`, `HOME`, `LANG` are set. */
  env?: Record<string, string>;
  /** rlimits of every command. Default `DEFAULT_LIMITS`. */
  limits?: ExecLimits;
  /** Most bytes of stdout and of stderr `run` collects (the rest is dropped). Default 16 MiB. */
  maxRunOutputBytes?: number;
}

/** The session, plus where its writable directory lives on the host and how to end it. */
export interface BubblewrapSandboxSession extends SandboxSession {
  /** Real path of the host directory mounted at the base directory. */
  readonly hostDir: string;
  /** Kills running commands and, when the directory was created by the session, deletes it. Idempotent. */
  stop(): Promise<void>;
}

function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(`${parent}/`);
}

/** Creates the session (and its temporary directory unless `dir` is given). */
export async function createBubblewrapSandboxSession(
  options: BubblewrapSandboxSessionOptions = {},
): Promise<BubblewrapSandboxSession> {
  const owned = options.dir === undefined;
  const given = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), "skillrt-sandbox-")));
  await mkdir(given, { recursive: true, mode: 0o700 });
  const hostDir = await realpath(given);
  const mountPoint = path.posix.resolve(options.mountPoint ?? "/workspace");
  const uid = options.uid ?? 1000;
  const bwrap = options.bwrapPath ?? "bwrap";
  const limits = options.limits ?? DEFAULT_LIMITS;
  const maxRunOutput = options.maxRunOutputBytes ?? 16 * 1024 ** 2;
  const running = new Set<ChildProcess>();
  let stopped = false;

  /**
   * The host path of sandbox path `p`: symbolic links are followed as the sandbox would (absolute targets
   * are sandbox paths), the last one only when `followLast`. Throws when the path leaves the writable
   * directory; components that do not exist yet are joined as they are.
   */
  function hostPath(p: string, followLast: boolean): string {
    let pending = path.posix.resolve(mountPoint, p);
    for (let hops = 0; hops < 40; hops++) {
      if (!inside(pending, mountPoint)) {
        throw new Error(`'${p}' is outside the sandbox's writable directory ${mountPoint}`);
      }
      const parts = path.posix
        .relative(mountPoint, pending)
        .split("/")
        .filter((x) => x !== "");
      let host = hostDir;
      let inSandbox = mountPoint;
      let followed = false;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] ?? "";
        host = path.join(host, part);
        inSandbox = path.posix.join(inSandbox, part);
        let stat: ReturnType<typeof lstatSync> | undefined;
        try {
          stat = lstatSync(host);
        } catch {
          return path.join(host, ...parts.slice(i + 1));
        }
        if (stat.isSymbolicLink() && (i < parts.length - 1 || followLast)) {
          pending = path.posix.resolve(
            path.posix.dirname(inSandbox),
            readlinkSync(host),
            ...parts.slice(i + 1),
          );
          followed = true;
          break;
        }
      }
      if (!followed) return host;
    }
    throw new Error(`'${p}': too many levels of symbolic links`);
  }

  async function readBytes(p: string): Promise<Uint8Array | null> {
    const host = hostPath(p, true);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(host, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    try {
      return new Uint8Array(await handle.readFile());
    } finally {
      await handle.close();
    }
  }

  async function writeBytes(p: string, content: Uint8Array): Promise<void> {
    const host = hostPath(p, true);
    await mkdir(path.dirname(host), { recursive: true });
    await writeFileNoFollow(host, content);
  }

  function encode(content: string, encoding = "utf-8"): Uint8Array {
    const name = encoding.toLowerCase().replace("utf-8", "utf8");
    if (!Buffer.isEncoding(name)) throw new Error(`encoding '${encoding}' is not supported`);
    return Buffer.from(content, name);
  }

  function start(
    command: string,
    workingDirectory: string | undefined,
    env: Record<string, string> | undefined,
    withStdin: boolean,
  ): Promise<ChildProcess> {
    if (stopped) return Promise.reject(new Error("the sandbox session is stopped"));
    const cwd = path.posix.resolve(mountPoint, workingDirectory ?? ".");
    const argv = [
      ...isolationArgs(uid),
      ...systemMountArgs(),
      "--bind",
      hostDir,
      mountPoint,
      "--remount-ro",
      "/",
      "--chdir",
      cwd,
      "--",
      ...withLimits(["/bin/sh", "-c", command], limits),
    ];
    const child = childProcess().spawn(bwrap, argv, {
      env: { PATH: DEFAULT_EXEC_PATH, HOME: mountPoint, LANG: "C.UTF-8", ...options.env, ...env },
      detached: true,
      stdio: [withStdin ? "pipe" : "ignore", "pipe", "pipe"],
    });
    running.add(child);
    child.on("close", () => running.delete(child));
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve(child));
      child.once("error", (error) => {
        running.delete(child);
        reject(new Error(`cannot start bubblewrap (${bwrap}): ${error.message}`));
      });
    });
  }

  function handle(
    child: ChildProcess,
    abortSignal: AbortSignal | undefined,
  ): SandboxProcess & { stdin?: WritableStream<Uint8Array> } {
    const kill = (): void => {
      if (child.pid !== undefined) killProcessGroup(child.pid, "SIGKILL");
    };
    const exited = new Promise<{ exitCode: number }>((resolve, reject) => {
      child.once("close", (code, signal) => {
        abortSignal?.removeEventListener("abort", kill);
        if (abortSignal?.aborted === true) reject(abortSignal.reason);
        else resolve({ exitCode: exitCodeOf(code, signal) });
      });
    });
    exited.catch(() => {}); // observed by wait(); never an unhandled rejection
    if (abortSignal?.aborted === true) kill();
    else abortSignal?.addEventListener("abort", kill, { once: true });
    // The run is over once its main process is: take down anything it left behind.
    child.once("exit", kill);
    return {
      ...(child.pid === undefined ? {} : { pid: child.pid }),
      stdout: Readable.toWeb(child.stdout ?? Readable.from([])) as ReadableStream<Uint8Array>,
      stderr: Readable.toWeb(child.stderr ?? Readable.from([])) as ReadableStream<Uint8Array>,
      ...(child.stdin === null ? {} : { stdin: Writable.toWeb(child.stdin) as WritableStream<Uint8Array> }),
      wait: () => exited,
      kill: async () => kill(),
    };
  }

  async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      if (size < maxRunOutput) chunks.push(Buffer.from(chunk).subarray(0, maxRunOutput - size));
      size += chunk.length;
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  const session: BubblewrapSandboxSession = {
    hostDir,
    description:
      `A local bubblewrap sandbox (skillrt). Commands run as uid ${uid} with no network access and a read-only ` +
      `system; ${mountPoint} is the writable base directory (relative paths resolve there); /tmp is private to ` +
      "each command and emptied after it.",
    async readFile({ path: p }) {
      const bytes = await readBytes(p);
      return bytes === null ? null : (Readable.toWeb(Readable.from([bytes])) as ReadableStream<Uint8Array>);
    },
    readBinaryFile: ({ path: p }) => readBytes(p),
    async readTextFile({ path: p, encoding, startLine, endLine }) {
      const bytes = await readBytes(p);
      if (bytes === null) return null;
      const text = new TextDecoder(encoding ?? "utf-8").decode(bytes);
      if (startLine === undefined && endLine === undefined) return text;
      const lines = text.split("\n");
      return lines.slice(Math.max(0, (startLine ?? 1) - 1), endLine ?? lines.length).join("\n");
    },
    async writeFile({ path: p, content }) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of content) chunks.push(chunk);
      await writeBytes(p, Buffer.concat(chunks));
    },
    writeBinaryFile: ({ path: p, content }) => writeBytes(p, content),
    writeTextFile: ({ path: p, content, encoding }) => writeBytes(p, encode(content, encoding)),
    async stat({ path: p }) {
      const stat = await lstat(hostPath(p, true)).catch(() => undefined);
      if (stat === undefined) return null;
      return { type: stat.isFile() ? "file" : stat.isDirectory() ? "directory" : "other", size: stat.size };
    },
    async listDirectory({ path: p }) {
      const host = hostPath(p, true);
      const stat = await lstat(host).catch(() => undefined);
      if (stat === undefined) return null;
      if (!stat.isDirectory()) throw new Error(`'${p}' is not a directory`);
      return (await readdir(host, { withFileTypes: true })).map(
        (entry): SandboxDirectoryEntry => ({
          name: entry.name,
          type: entry.isFile()
            ? "file"
            : entry.isDirectory()
              ? "directory"
              : entry.isSymbolicLink()
                ? "symlink"
                : "other",
        }),
      );
    },
    async deleteFile({ path: p }) {
      const host = hostPath(p, false);
      const stat = await lstat(host).catch(() => undefined);
      if (stat === undefined) return false;
      if (stat.isDirectory()) throw new Error(`'${p}' is a directory`);
      await unlink(host);
      return true;
    },
    spawn: (async (spawnOptions: {
      command: string;
      workingDirectory?: string;
      env?: Record<string, string>;
      abortSignal?: AbortSignal;
      stdin?: boolean;
    }) => {
      spawnOptions.abortSignal?.throwIfAborted();
      const child = await start(
        spawnOptions.command,
        spawnOptions.workingDirectory,
        spawnOptions.env,
        spawnOptions.stdin === true,
      );
      return handle(child, spawnOptions.abortSignal);
    }) as SandboxSession["spawn"],
    async run(runOptions) {
      runOptions.abortSignal?.throwIfAborted();
      const child = await start(runOptions.command, runOptions.workingDirectory, runOptions.env, false);
      const proc = handle(child, runOptions.abortSignal);
      const [stdout, stderr, { exitCode }] = await Promise.all([
        collect(proc.stdout),
        collect(proc.stderr),
        proc.wait(),
      ]);
      return { exitCode, stdout, stderr };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const child of running) if (child.pid !== undefined) killProcessGroup(child.pid, "SIGKILL");
      if (owned) await rm(hostDir, { recursive: true, force: true });
    },
  };
  return session;
}
