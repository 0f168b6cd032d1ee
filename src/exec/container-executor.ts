/**
 * The `container` executor: `docker run` (or podman) per command with `--network none`, all
 * capabilities dropped, `no-new-privileges`, a pids limit, and the request's mounts at the same paths
 * (skill read-only, workspace read-write). Env values travel through the client's environment
 * (`-e NAME`), never on the command line where `ps` would show them.
 */
import { childProcess } from "../util/child-process.js";
import type { ExecRequest, ExecResult, Executor } from "./executor.js";
import { DEFAULT_LIMITS } from "./limits.js";
import { limitedCommand, runRequest } from "./run-request.js";

/** Options of `createContainerExecutor`. */
export interface ContainerExecutorOptions {
  /** `docker` (default) or `podman`, or a path to either. */
  cli?: string;
  /** Image to run. Default `python:3.12-slim`. */
  image?: string;
  /** Memory limit passed as `--memory`. Default `2g`. */
  memory?: string;
}

const engineProbe = new Map<string, { ok: boolean; reason?: string }>();

/** Whether the container engine answers (`<cli> info`, cached per CLI). */
export function probeContainerEngine(cli = "docker"): { ok: boolean; reason?: string } {
  const cached = engineProbe.get(cli);
  if (cached !== undefined) return cached;
  const result = childProcess().spawnSync(cli, ["info", "--format", "{{.ServerVersion}}"], {
    timeout: 10_000,
    encoding: "utf8",
  });
  const answer =
    result.error !== undefined
      ? { ok: false, reason: `cannot run ${cli}: ${result.error.message}` }
      : result.status === 0
        ? { ok: true }
        : { ok: false, reason: `${cli} info failed: ${(result.stderr || result.stdout).trim()}` };
  engineProbe.set(cli, answer);
  return answer;
}

const CLIENT_ENV = [
  "HOME",
  "DOCKER_HOST",
  "DOCKER_CONFIG",
  "DOCKER_CONTEXT",
  "XDG_RUNTIME_DIR",
  "CONTAINER_HOST",
];

/** Creates the container executor. It does not probe the engine; `createExecutor` does. */
export function createContainerExecutor(options: ContainerExecutorOptions = {}): Executor {
  const cli = options.cli ?? "docker";
  const image = options.image ?? "python:3.12-slim";
  return {
    kind: "container",
    async run(request: ExecRequest): Promise<ExecResult> {
      // Loaded here: node:crypto costs start-up time, and only container runs need it.
      const { randomBytes } = await import("node:crypto");
      const name = `skillrt-${randomBytes(6).toString("hex")}`;
      const args = ["run", "--rm", "-i", "--name", name, "--network", "none", "--cap-drop", "ALL"];
      args.push("--security-opt", "no-new-privileges", "--memory", options.memory ?? "2g");
      args.push("--pids-limit", String(request.limits?.maxProcesses ?? DEFAULT_LIMITS.maxProcesses));
      for (const mount of request.mounts ?? []) {
        const mode = mount.readOnly === false ? "rw" : "ro";
        args.push("-v", `${mount.source}:${mount.target ?? mount.source}:${mode}`);
      }
      args.push("-w", request.cwd);
      const clientEnv: Record<string, string> = { PATH: process.env["PATH"] ?? "/usr/bin:/bin" };
      for (const key of CLIENT_ENV) {
        const value = process.env[key];
        if (value !== undefined) clientEnv[key] = value;
      }
      for (const [key, value] of Object.entries(request.env)) {
        args.push("-e", key);
        clientEnv[key] = value;
      }
      // HOME is the sandbox's; keep the client's own config reachable.
      if (clientEnv["DOCKER_CONFIG"] === undefined && process.env["HOME"] !== undefined) {
        clientEnv["DOCKER_CONFIG"] = `${process.env["HOME"]}/.docker`;
      }
      return runRequest("container", request, {
        argv: [cli, ...args, image, ...limitedCommand(request, "/bin/sh")],
        cwd: "/",
        env: clientEnv,
        // The container outlives its client: when skillrt dies (kill -9), the watcher removes it first.
        dieWithOwner: true,
        onOwnerDeath: [cli, "kill", name],
        onKill: () => {
          childProcess()
            .spawn(cli, ["kill", name], { stdio: "ignore", detached: true })
            .on("error", () => {})
            .unref();
        },
      });
    },
  };
}
