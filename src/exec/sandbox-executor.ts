/**
 * The `sandbox` executor: bubblewrap with every namespace unshared (user, pid, net, ipc, uts, cgroup),
 * capabilities dropped, a non-root uid, a read-only system (`/usr`, `/bin`, `/lib*`, a few `/etc`
 * files), a private `/tmp`, minimal `/proc` and `/dev`, and only the mounts the request names.
 * Nothing else of the host file system is visible.
 */

import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { childProcess } from "../util/child-process.js";
import { DEFAULT_EXEC_PATH, type ExecRequest, type ExecResult, type Executor } from "./executor.js";
import { limitedCommand, runRequest } from "./run-request.js";
import { rememberedSandboxProbe, rememberSandboxProbe } from "./sandbox-probe-cache.js";

/** Options of `createSandboxExecutor`. */
export interface SandboxExecutorOptions {
  /** Path of the bwrap binary. Default `bwrap` (looked up on PATH). */
  bwrapPath?: string;
  /** uid and gid inside the sandbox. Default 1000 (never root, even when the host user is root). */
  uid?: number;
  /** Extra host paths mounted read-only at the same path (e.g. `/opt/tools`). */
  extraReadOnlyPaths?: string[];
}

/** `/etc` entries interpreters commonly need (dynamic linker, certificates, time zone, MIME, alternatives). */
const ETC_ENTRIES = [
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "alternatives",
  "localtime",
  "timezone",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "nsswitch.conf",
  "hosts",
  "mime.types",
  "magic",
  "magic.mime",
  "python3",
  "os-release",
];

/** Top-level system entries: merged-/usr distributions have symlinks here, older ones real dirs. */
const ROOT_ENTRIES = ["bin", "sbin", "lib", "lib32", "lib64", "libx32"];

let systemArgsCache: string[] | undefined;

/** bwrap arguments that build the read-only system view, without `/tmp` (computed once per process). */
export function systemMountArgs(): string[] {
  if (systemArgsCache !== undefined) return systemArgsCache;
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const entry of ROOT_ENTRIES) {
    const path = `/${entry}`;
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(path), path);
      else if (stat.isDirectory()) args.push("--ro-bind", path, path);
    } catch {
      // absent on this distribution
    }
  }
  for (const entry of ETC_ENTRIES) args.push("--ro-bind-try", `/etc/${entry}`, `/etc/${entry}`);
  args.push("--proc", "/proc", "--dev", "/dev");
  systemArgsCache = args;
  return args;
}

/** bwrap arguments that unshare every namespace, drop capabilities and run as `uid`. */
export function isolationArgs(uid: number): string[] {
  return [
    "--unshare-all",
    "--unshare-user",
    "--uid",
    String(uid),
    "--gid",
    String(uid),
    "--cap-drop",
    "ALL",
    "--hostname",
    "skillrt",
    "--die-with-parent",
    "--new-session",
  ];
}

const probeCache = new Map<string, { ok: boolean; reason?: string }>();

/**
 * Whether bubblewrap can build a sandbox here (runs `bwrap … true` once per binary path and caches the
 * answer). `reason` explains a failure (missing binary, user namespaces disabled, …).
 */
export function probeSandbox(bwrapPath = "bwrap", uid = 1000): { ok: boolean; reason?: string } {
  const cached = probeCache.get(bwrapPath);
  if (cached !== undefined) return cached;
  // A success remembered across processes (same binary, kernel and settings) skips the ~10 ms probe.
  const remembered = rememberedSandboxProbe(bwrapPath, uid);
  if (remembered !== undefined) {
    // The `--help` answer is remembered with the probe, so a run never spawns bwrap twice to start.
    sizeSupport.set(bwrapPath, remembered.tmpfsSize);
    return { ok: true };
  }
  const result = childProcess().spawnSync(
    bwrapPath,
    [...isolationArgs(uid), ...systemMountArgs(), "--tmpfs", "/tmp", "--", "/bin/true"],
    {
      timeout: 5000,
      encoding: "utf8",
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" },
    },
  );
  const answer =
    result.error !== undefined
      ? { ok: false, reason: `cannot run ${bwrapPath}: ${result.error.message}` }
      : result.status === 0
        ? { ok: true }
        : { ok: false, reason: `${bwrapPath} failed (exit ${result.status}): ${result.stderr.trim()}` };
  probeCache.set(bwrapPath, answer);
  if (answer.ok)
    rememberSandboxProbe(bwrapPath, uid, {
      tmpfsSize: sizeSupport.get(bwrapPath) ?? askTmpfsSize(bwrapPath),
    });
  return answer;
}

const sizeSupport = new Map<string, boolean>();

/** Whether this bwrap knows `--size` (0.5+), from `bwrap --help` (asked once per binary path). */
function askTmpfsSize(bwrapPath: string): boolean {
  const help = childProcess().spawnSync(bwrapPath, ["--help"], { timeout: 5000, encoding: "utf8" });
  const known = `${help.stdout ?? ""}${help.stderr ?? ""}`.includes("--size");
  sizeSupport.set(bwrapPath, known);
  return known;
}

/**
 * Whether this bwrap knows `--size`. A run that did not probe (an explicit `sandbox` executor) probes
 * first: a success is remembered across processes with the `--help` answer, so later processes spawn
 * nothing but the command itself.
 */
function supportsTmpfsSize(bwrapPath: string, uid: number): boolean {
  const known = sizeSupport.get(bwrapPath);
  if (known !== undefined) return known;
  probeSandbox(bwrapPath, uid);
  return sizeSupport.get(bwrapPath) ?? askTmpfsSize(bwrapPath);
}

/** The private `/tmp`: a tmpfs of `limits.tmpBytes` when given and bwrap can size it. */
function tmpArgs(bwrapPath: string, uid: number, request: ExecRequest): string[] {
  const size = request.limits?.tmpBytes;
  if (size !== undefined && Number.isFinite(size) && size > 0 && supportsTmpfsSize(bwrapPath, uid))
    return ["--size", String(Math.floor(size)), "--tmpfs", "/tmp"];
  return ["--tmpfs", "/tmp"];
}

/** The shell used for string commands: bash when the system has it, else sh. */
export function defaultShell(): string {
  return existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

/** Creates the bubblewrap executor. It does not probe; use `createExecutor({ kind: "auto" })` for that. */
export function createSandboxExecutor(options: SandboxExecutorOptions = {}): Executor {
  const bwrap = options.bwrapPath ?? "bwrap";
  const uid = options.uid ?? 1000;
  const shell = defaultShell();
  return {
    kind: "sandbox",
    async run(request: ExecRequest): Promise<ExecResult> {
      const args = [...isolationArgs(uid), ...systemMountArgs(), ...tmpArgs(bwrap, uid, request)];
      for (const path of options.extraReadOnlyPaths ?? []) args.push("--ro-bind-try", path, path);
      for (const mount of request.mounts ?? []) {
        args.push(
          mount.readOnly === false ? "--bind" : "--ro-bind",
          mount.source,
          mount.target ?? mount.source,
        );
      }
      // The sandbox root is bwrap's own tmpfs: make it read-only so only mounted writable dirs take writes.
      args.push("--remount-ro", "/", "--chdir", request.cwd);
      return runRequest("sandbox", request, {
        argv: [bwrap, ...args, "--", ...limitedCommand(request, shell)],
        cwd: "/",
        env: { PATH: DEFAULT_EXEC_PATH, ...request.env },
      });
    },
  };
}
