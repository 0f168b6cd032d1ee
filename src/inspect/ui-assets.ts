/**
 * The inspector's static UI: plain HTML, CSS and JavaScript in `src/inspect/ui/`, shipped in the package
 * as they are (no build step, nothing from a CDN). Only the files listed here are served.
 */
import { readFile } from "node:fs/promises";

// From src/inspect/, dist/inspect/ and dist/lib/ alike (each two levels below the package root).
const UI_DIR = new URL("../../src/inspect/ui/", import.meta.url);

const ASSETS: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
  "/favicon.svg": { file: "favicon.svg", type: "image/svg+xml" },
};

const cache = new Map<string, Buffer>();

/** The asset served at `route`, or undefined for any other path. */
export async function readUiAsset(route: string): Promise<{ body: Buffer; type: string } | undefined> {
  const asset = ASSETS[route];
  if (asset === undefined) return undefined;
  let body = cache.get(asset.file);
  if (body === undefined) {
    body = await readFile(new URL(asset.file, UI_DIR));
    cache.set(asset.file, body);
  }
  return { body, type: asset.type };
}
