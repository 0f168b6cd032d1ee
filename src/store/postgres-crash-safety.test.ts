import { beforeAll, describe, expect, it } from "vitest";
import { expectIntactSnapshot, runAndKill } from "./__fixtures__/run-and-kill.js";
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
        lastSeen = expectIntactSnapshot(got, committed, lastSeen);
      }
    }, 120_000);
  }
});
