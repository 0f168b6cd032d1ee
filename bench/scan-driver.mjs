#!/usr/bin/env node
// Times nothing itself: a minimal stand-in for `skillrt list --json --root DIR` (catalog only, compact
// JSON), used by bench/scan.mjs when the CLI is not built or SKILLRT_BENCH_DRIVER=1. Prints the catalog
// as JSON and, on stderr, the peak RSS in KiB.
import { createCatalog } from "../dist/catalog/create-catalog.js";

const root = process.argv[2];
const catalog = await createCatalog({ roots: [root] });
process.stdout.write(`${JSON.stringify({ skills: catalog.list(), diagnostics: catalog.diagnostics() })}\n`);
process.stderr.write(`maxrss_kb=${process.resourceUsage().maxRSS}\n`);
