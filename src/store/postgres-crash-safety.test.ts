import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { runAndKill } from "./__fixtures__/run-and-kill.js";
import { testPostgres } from "./__fixtures__/test-postgres.js";
import { createPostgresStore } from "./create-postgres-store.js";

let url: string | undefined;
beforeAll(async () => {
  const server = await testPostgres();
  if ("url" in server) url = server.url;
  else console.log(`skipping Postgres crash tests: ${server.skip}`);
}, 180_000);

describe("Postgres store crash safety", () => {
  for (const run of [1, 2]) {
    it(`keeps the last committed snapshot intact after kill -9 of the writer (run ${run})`, async (context) => {
      if (url === undefined) return context.skip();
      const schema = `crash_${run}`;
      let lastSeen = 0;
      for (let round = 0; round < 3; round++) {
        const committed = await runAndKill(url, schema, 10 + run * 5 + round * 4);
        expect(committed).toBeGreaterThan(0);
        const store = createPostgresStore({ url, schema });
        const got = await store.get("crash");
        await store.close();
        const data = got?.data as { n: number; size: number; digest: string; payload: string };
        // Every write the writer reported is there; at most the one in flight at the kill goes beyond it.
        expect(data.n).toBeGreaterThanOrEqual(committed);
        expect(data.n).toBeLessThanOrEqual(committed + 1);
        expect(data.payload.length).toBe(data.size);
        expect(createHash("sha256").update(data.payload).digest("hex")).toBe(data.digest);
        expect(got?.version).toBeGreaterThan(lastSeen);
        lastSeen = got?.version ?? 0;
      }
    }, 120_000);
  }
});
