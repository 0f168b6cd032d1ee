/**
 * The chat page's static files: plain HTML, CSS and JavaScript in `src/serve/ui/`, shipped in the package
 * as they are (no build step, nothing from a CDN). Only the files listed here are served.
 */
import { staticAssets } from "../util/static-assets.js";

/** The asset served at `route`, or undefined for any other path. */
export const readChatAsset = staticAssets(
  // From src/serve/, dist/serve/, dist/lib/ and dist/bundle/ alike (each two levels below the package root).
  new URL("../../src/serve/ui/", import.meta.url),
  {
    "/": { file: "index.html", type: "text/html; charset=utf-8" },
    "/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
    "/chat.js": { file: "chat.js", type: "text/javascript; charset=utf-8" },
    "/chat.css": { file: "chat.css", type: "text/css; charset=utf-8" },
  },
);
