/**
 * The package as a user gets it: `npm pack` of the built repository, then `npm install` of the tarball in
 * a fresh directory (npm and node are the pinned Node running the tests, first on PATH).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { assertBuilt } from "./run-cli.js";

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "../../..");

/** A fresh install of the packed tarball. */
export interface PackedInstall {
  /** Temp directory holding the tarball and `app/`; remove it when done. */
  dir: string;
  /** The app directory with `node_modules/skillrt` installed from the tarball. */
  app: string;
  /** Paths inside the tarball (relative to the package root), as `npm pack` lists them. */
  files: string[];
  env: NodeJS.ProcessEnv;
}

/** Packs the repository and installs the tarball into `<tmp>/app`. */
export async function installPacked(prefix: string): Promise<PackedInstall> {
  assertBuilt();
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const app = path.join(dir, "app");
  await mkdir(app);
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env["PATH"] ?? ""}`,
    SKILLRT_NATIVE: "0",
  };
  const packed = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
    cwd: repo,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (info === undefined) throw new Error(`npm pack printed no package: ${packed.stdout}`);
  await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(dir, info.filename)],
    {
      cwd: app,
      env,
    },
  );
  return { dir, app, files: info.files.map((f) => f.path), env };
}
