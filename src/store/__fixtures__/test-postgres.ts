/**
 * The run's shared PostgreSQL for tests: the first caller (in any worker) starts a throwaway cluster,
 * every other caller waits for it, and the global setup stops it when the run ends. Resolves with the
 * server URL, or with the reason PostgreSQL cannot be used here (tests then skip, saying why).
 * `SKILLRT_TEST_POSTGRES_URL` points the tests at an existing server instead.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { findPostgresBin, startPostgresCluster } from "../../../test/support/postgres-cluster.js";

/** The server to test against, or why there is none. */
export type TestPostgres = { url: string } | { skip: string };

let cached: Promise<TestPostgres> | undefined;

/** The run's PostgreSQL server (started on first use). */
export function testPostgres(): Promise<TestPostgres> {
  cached ??= resolveTestPostgres();
  return cached;
}

async function resolveTestPostgres(): Promise<TestPostgres> {
  const external = process.env["SKILLRT_TEST_POSTGRES_URL"];
  if (external !== undefined && external !== "") return { url: external };
  const found = findPostgresBin();
  if ("reason" in found) return { skip: found.reason };
  const dir = inject("skillrtPostgresDir");
  const urlFile = path.join(dir, "url");
  const errorFile = path.join(dir, "error");
  let starter = false;
  try {
    await mkdir(path.join(dir, "starting"));
    starter = true;
  } catch {
    // another worker is starting it
  }
  if (starter) {
    try {
      const cluster = await startPostgresCluster({ noFsync: true });
      const { stop: _stop, ...info } = cluster;
      await writeFile(path.join(dir, "cluster.json"), JSON.stringify(info));
      await writeFile(`${urlFile}.tmp`, cluster.url);
      await rename(`${urlFile}.tmp`, urlFile);
    } catch (error) {
      await writeFile(errorFile, error instanceof Error ? error.message : String(error));
    }
  }
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (existsSync(urlFile)) return { url: await readFile(urlFile, "utf8") };
    if (existsSync(errorFile))
      throw new Error(`test PostgreSQL did not start: ${await readFile(errorFile, "utf8")}`);
    await sleep(100);
  }
  throw new Error("test PostgreSQL did not start within 120 s");
}
