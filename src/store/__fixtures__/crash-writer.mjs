// Child process for the crash-safety test: writes snapshots through the real createSqliteStore in a loop
// and prints "<n>\n" after each committed write, until it is killed.
// Usage: node crash-writer.mjs <db path> <synchronous: full|normal>
//        node crash-writer.mjs <postgres://…> <schema>
import { createHash } from "node:crypto";
import "../../../scripts/register-ts-sources.mjs";

const [where, option] = process.argv.slice(2);
let store;
if (where.startsWith("postgres://")) {
  const { createPostgresStore } = await import("../create-postgres-store.ts");
  store = createPostgresStore({ url: where, schema: option });
} else {
  const { createSqliteStore } = await import("../create-sqlite-store.ts");
  store = createSqliteStore({ path: where, synchronous: option });
}

for (let n = 1; ; n++) {
  // Sizes vary from ~1 KB to ~400 KB so kills land in small writes, page-spanning writes and checkpoints.
  const size = 1024 + ((n * 7919) % 400_000);
  const payload = String(n % 10).repeat(size);
  const digest = createHash("sha256").update(payload).digest("hex");
  await store.put("crash", { n, size, digest, payload });
  await store.put(`side-${n % 3}`, { n });
  process.stdout.write(`${n}\n`);
}
