// Child process for the session-lock tests: takes a session's lock through the real store, prints
// "locked <pid>" and holds it until killed.
// Usage: node lock-holder.mjs <sqlite PATH | postgres URL SCHEMA> <session id>
import "../../../scripts/register-ts-sources.mjs";

const [kind, where, ...rest] = process.argv.slice(2);
let store;
let id;
if (kind === "sqlite") {
  const { createSqliteStore } = await import("../create-sqlite-store.ts");
  store = createSqliteStore({ path: where });
  id = rest[0];
} else {
  const { createPostgresStore } = await import("../create-postgres-store.ts");
  store = createPostgresStore({ url: where, schema: rest[0] });
  id = rest[1];
}
await store.lockSession(id);
process.stdout.write(`locked ${process.pid}\n`);
setInterval(() => {}, 1 << 30);
