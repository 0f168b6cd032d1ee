/**
 * A web page's static files served from a folder shipped in the package as it is (no build step,
 * nothing from a CDN): only the routes listed are served, each file read once and kept.
 */
import { readFile } from "node:fs/promises";

/** One served file: its name in the folder and its content type. */
export interface StaticAsset {
  file: string;
  type: string;
}

/** A reader of `assets` (by route) from the folder `dir`: undefined for any other route. */
export function staticAssets(
  dir: URL,
  assets: Readonly<Record<string, StaticAsset>>,
): (route: string) => Promise<{ body: Buffer; type: string } | undefined> {
  const cache = new Map<string, Buffer>();
  return async (route) => {
    const asset = Object.hasOwn(assets, route) ? assets[route] : undefined;
    if (asset === undefined) return undefined;
    let body = cache.get(asset.file);
    if (body === undefined) {
      body = await readFile(new URL(asset.file, dir));
      cache.set(asset.file, body);
    }
    return { body, type: asset.type };
  };
}
