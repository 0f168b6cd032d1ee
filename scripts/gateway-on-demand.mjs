// What the CLI bundle has in place of `@ai-sdk/gateway` (scripts/build-library.mjs). The `ai` package imports
// the AI Gateway provider for string model ids ("openai/gpt-5") and checks its errors by marker; skillrt's
// CLI gives the AI SDK provider models, so the gateway's 160 KB of code (with @vercel/oidc) and its
// module set-up are loaded only if a string model id reaches the SDK: on that first use, from the
// package `ai` itself depends on (Node's require of an ES module, Node >= 22.12). The error checks read
// the same `Symbol.for` markers as the package's classes, so they agree on every error without loading it.
import { createRequire } from "node:module";

let loaded;
/** The real package, resolved from where `ai` is installed (its dependency). */
function real() {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    loaded = createRequire(require.resolve("ai"))("@ai-sdk/gateway");
  }
  return loaded;
}

const ERROR = Symbol.for("vercel.ai.gateway.error");
const AUTHENTICATION = Symbol.for("vercel.ai.gateway.error.GatewayAuthenticationError");
const marked = (error) =>
  typeof error === "object" && error !== null && ERROR in error && error[ERROR] === true;

export const GatewayError = {
  isInstance: marked,
  hasMarker: marked,
};

export const GatewayAuthenticationError = {
  isInstance: (error) => marked(error) && AUTHENTICATION in error,
};

export function createGateway(...args) {
  return real().createGateway(...args);
}

/** The default gateway provider: a function with model methods, all forwarded to the real one. */
export const gateway = new Proxy(function gateway() {}, {
  apply: (_target, _this, args) => real().gateway(...args),
  get: (_target, key) => {
    const value = real().gateway[key];
    return typeof value === "function" ? value.bind(real().gateway) : value;
  },
  has: (_target, key) => key in real().gateway,
});
