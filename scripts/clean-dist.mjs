#!/usr/bin/env node
// Empties dist/ before `tsc` writes it, so nothing from an earlier build (a source map from when maps were
// emitted, the output of a deleted module) can end up in `npm pack`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
fs.rmSync(path.join(root, "dist"), { recursive: true, force: true });
