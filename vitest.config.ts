import { defineConfig } from "vitest/config";

/**
 * Two projects, both run by `npm test` and CI:
 * - `fast`: pure units (no child processes, sandbox, databases, browser or generated property runs) —
 *   seconds; `npx vitest --project fast` while developing.
 * - `slow`: end-to-end, security, property, executor, store, MCP and CLI-process tests.
 */
const SLOW = [
  "test/**/*.test.ts",
  "src/**/*.property.test.ts",
  "src/spec/fast-frontmatter.test.ts",
  "src/spec/parse-skill-md.real-world.test.ts",
  "src/context/session-ledger.test.ts",
  "src/catalog/search-index.test.ts",
  "src/catalog/catalog-cache.test.ts",
  "src/catalog/watch-catalog.test.ts",
  "src/catalog/remote/**/*.test.ts",
  "src/exec/**/*.test.ts",
  "src/store/**/*.test.ts",
  "src/cli/**/*.test.ts",
  "src/mcp/**/*.test.ts",
  "src/tools/mcp-client/**/*.test.ts",
  "src/inspect/**/*.test.ts",
  "src/engine/**/*.test.ts",
  "src/eval/**/*.test.ts",
  "src/util/trusted-cache.test.ts",
  "src/tools/profiles/*-profile.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["test/support/postgres-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: "fast", include: ["src/**/*.test.ts"], exclude: SLOW } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
