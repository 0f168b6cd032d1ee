/**
 * The chat page's static files: plain HTML, CSS and JavaScript in `src/serve/ui/`, shipped in the package
 * as they are (no build step, nothing from a CDN). Only the files listed here are served.
 */
import { readFile } from "node:fs/promises";

// From src/serve/, dist/serve/ and dist/bundle/ alike (each two levels below the package root).
const UI_DIR = new URL("../../src/serve/ui/", import.meta.url);

const ASSETS: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
  "/chat.js": { file: "chat.js", type: "text/javascript; charset=utf-8" },
  "/chat.css": { file: "chat.css", type: "text/css; charset=utf-8" },
};

const cache = new Map<string, Buffer>();

/** The asset served at `route`, or undefined for any other path. */
export async function readChatAsset(route: string): Promise<{ body: Buffer; type: string } | undefined> {
  const asset = ASSETS[route];
  if (asset === undefined) return undefined;
  let body = cache.get(asset.file);
  if (body === undefined) {
    body = await readFile(new URL(asset.file, UI_DIR));
    cache.set(asset.file, body);
  }
  return { body, type: asset.type };
}
