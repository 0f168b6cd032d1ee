/**
 * Vitest global setup: gives every test worker one shared directory through which the first test that
 * needs PostgreSQL starts a throwaway cluster for the whole run (see `testPostgres`), and stops that
 * cluster when the run ends. A run that needs no PostgreSQL starts none.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { type PostgresClusterInfo, stopPostgresCluster } from "./postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Directory coordinating the run's shared PostgreSQL cluster. */
    skillrtPostgresDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-pg-run-"));
  project.provide("skillrtPostgresDir", dir);
  return async () => {
    const infoFile = path.join(dir, "cluster.json");
    if (existsSync(infoFile)) {
      const info = JSON.parse(await readFile(infoFile, "utf8")) as PostgresClusterInfo;
      await stopPostgresCluster(info);
    }
    await rm(dir, { recursive: true, force: true });
  };
}
