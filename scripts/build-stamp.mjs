// The stamp of a build (scripts/build.mjs): a SHA-256 of everything the build reads: the sources tsc
// compiles (src/ without tests and test fixtures, as tsconfig.build.json excludes them), the build scripts,
// the tsconfig files, package.json, and the versions of the compiler and the bundler. dist/ holds the
// stamp of the sources it was built from (dist/.build-stamp), written last: a dist/ whose stamp matches is
// complete and up to date, so the build is skipped; the e2e tests check the same (test/e2e/support/run-cli.ts).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The stamp's file name in dist/. */
export const STAMP = ".build-stamp";

/** Every regular file below `dir` (relative paths, sorted), skipping tests and test fixtures as tsc does. */
function sources(dir, rel = "") {
  const out = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = path.posix.join(rel, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__fixtures__" && !(rel === "" && entry.name === "test-utils"))
        out.push(...sources(dir, name));
    } else if (entry.isFile() && !entry.name.endsWith(".test.ts")) out.push(name);
  }
  return out.sort();
}

/** The version of a package installed below `root` ("none" when it is not). */
function versionOf(root, name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return "none";
  }
}

/** The stamp (64 hex digits) of the checkout at `root` as it is now. */
export function buildStamp(root) {
  const hash = createHash("sha256");
  const add = (name, bytes) => hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  for (const file of sources(path.join(root, "src")))
    add(`src/${file}`, fs.readFileSync(path.join(root, "src", file)));
  for (const file of [
    "scripts/build.mjs",
    "scripts/build-library.mjs",
    "scripts/build-stamp.mjs",
    "scripts/gateway-on-demand.mjs",
    "tsconfig.json",
    "tsconfig.build.json",
    "package.json",
  ])
    add(file, fs.readFileSync(path.join(root, file)));
  const versions = `${versionOf(root, "typescript")} ${versionOf(root, "rolldown")}`;
  add("versions", Buffer.from(versions));
  return hash.digest("hex");
}

/** The stamp dist/ was built with, or undefined when it has none (not built, or an interrupted build). */
export function builtStamp(root) {
  try {
    return fs.readFileSync(path.join(root, "dist", STAMP), "utf8").trim();
  } catch {
    return undefined;
  }
}
