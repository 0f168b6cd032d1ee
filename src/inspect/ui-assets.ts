/**
 * The inspector's static UI: plain HTML, CSS and JavaScript in `src/inspect/ui/`, shipped in the package
 * as they are (no build step, nothing from a CDN). Only the files listed here are served.
 */
import { staticAssets } from "../util/static-assets.js";

/** The asset served at `route`, or undefined for any other path. */
export const readUiAsset = staticAssets(
  // From src/inspect/, dist/inspect/, dist/lib/ and dist/bundle/ alike (each two levels below the package root).
  new URL("../../src/inspect/ui/", import.meta.url),
  {
    "/": { file: "index.html", type: "text/html; charset=utf-8" },
    "/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
    "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
    "/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
    "/favicon.svg": { file: "favicon.svg", type: "image/svg+xml" },
  },
);
