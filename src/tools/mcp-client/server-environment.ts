/**
 * The environment a stdio MCP server starts with. The MCP SDK passes only a minimal set (HOME, PATH, …), so
 * a server launched through `npx -y` or `uvx` on a machine whose registry access needs a proxy or a
 * company CA could not download itself. skillrt adds the variables a Node or Python launcher reads to
 * reach a registry, when they are set — nothing else of the host's environment.
 */
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";

/** Host variables a launcher needs to reach a package registry: CA files, proxies, registry settings. */
export const LAUNCHER_ENV_NAMES: readonly string[] = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "http_proxy",
  "https_proxy",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "all_proxy",
  "NO_PROXY",
  "no_proxy",
  "npm_config_registry",
  "npm_config_cafile",
  "npm_config_ca",
  "npm_config_strict_ssl",
  "NPM_CONFIG_REGISTRY",
  "NPM_CONFIG_CAFILE",
  "NPM_CONFIG_CA",
  "NPM_CONFIG_STRICT_SSL",
  "PIP_INDEX_URL",
  "PIP_CERT",
  "UV_INDEX_URL",
];

/**
 * The server's environment: the SDK's minimal set, then (unless `inheritEnv` is `false`) the
 * {@link LAUNCHER_ENV_NAMES} and the names `inheritEnv` lists that are set in `host`, then the configured
 * `env` (already resolved), which wins.
 */
export function serverEnvironment(
  host: Readonly<Record<string, string | undefined>>,
  configured: Readonly<Record<string, string>>,
  inheritEnv: false | readonly string[] | undefined,
): Record<string, string> {
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  if (inheritEnv !== false) {
    for (const name of [...LAUNCHER_ENV_NAMES, ...(inheritEnv ?? [])]) {
      const value = host[name];
      if (value !== undefined && value !== "") env[name] = value;
    }
  }
  return { ...env, ...configured };
}

/** What Node, npm, OpenSSL and Python's ssl say when a certificate chain has a CA they do not trust. */
const UNTRUSTED_CERTIFICATE =
  /UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERTIFICATE_VERIFY_FAILED|unable to (verify the first|get local issuer) certificate|self[- ]signed certificate/i;

/**
 * For a start failure whose output (`output`: the server's stderr, or the error) shows an untrusted
 * certificate, what to do about it, given the names of the environment the server got; otherwise "".
 */
export function certificateHint(output: string, envNames: readonly string[]): string {
  if (!UNTRUSTED_CERTIFICATE.test(output)) return "";
  return envNames.includes("NODE_EXTRA_CA_CERTS")
    ? ". A certificate was not trusted although NODE_EXTRA_CA_CERTS was passed: check that its file holds the CA that signs the registry's (or proxy's) certificate"
    : ". A certificate was not trusted: behind a company CA or TLS-inspecting proxy, set NODE_EXTRA_CA_CERTS (npx, Node) or SSL_CERT_FILE (uvx, Python) to the CA's file where skillrt runs, and the server gets it";
}
