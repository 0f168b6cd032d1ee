/**
 * The one trust policy: what an origin may do before and after the user trusts it. Every source of skills,
 * settings or tools is an origin — the user's own config and roots, a project directory with its config
 * files, a remote root, an MCP server and the skills it serves, a child agent — and whatever acts on an
 * origin's word asks {@link originMay} for the action it would take. Nothing decides on its own.
 */

/**
 * What an origin's content can make skillrt do:
 * - `describe`: be listed, read and shown; set roots (as untrusted roots), presentation, budgets, and
 *   settings that only narrow (stricter approvals, the sandbox, fewer commands, pre-render off).
 * - `run-code`: run the origin's scripts.
 * - `pre-render`: run its `` !`cmd` `` lines when a skill loads.
 * - `pre-approve-tools`: let a tool run without asking (`allowed-tools`, `tools.allow`).
 * - `start-process`: start a program (an MCP server's `command`).
 * - `choose-endpoint`: decide where requests carrying the user's keys or data go (a model `baseURL`, a
 *   fallback provider, an MCP server's URL, a store URL).
 * - `read-env`: name an environment variable to read or send (`apiKeyEnv`, `${env:X}`).
 * - `set-run-env`: set variables skill runs see (a skill's `env`: `NODE_OPTIONS` or `PYTHONPATH` would
 *   change what a trusted skill's programs load).
 * - `weaken-approval`: ask less than the user's settings ask (`tools.approval: never`).
 * - `weaken-isolation`: loosen the executor, the sandbox or what it may reach (`exec.executor: local`,
 *   `hostDirs`, a wider command list, an artifacts folder outside the project).
 */
export type TrustAction =
  | "describe"
  | "run-code"
  | "pre-render"
  | "pre-approve-tools"
  | "start-process"
  | "choose-endpoint"
  | "read-env"
  | "set-run-env"
  | "weaken-approval"
  | "weaken-isolation";

/** Every action, in the order the security table lists them. */
export const TRUST_ACTIONS: readonly TrustAction[] = [
  "describe",
  "run-code",
  "pre-render",
  "pre-approve-tools",
  "start-process",
  "choose-endpoint",
  "read-env",
  "set-run-env",
  "weaken-approval",
  "weaken-isolation",
];

/** What an untrusted origin may do: be described. Everything else needs the user's trust. */
const UNTRUSTED_MAY: ReadonlySet<TrustAction> = new Set(["describe"]);

/**
 * Whether an origin in trust state `trusted` may take `action`. A trusted origin may take every action
 * (within the user's own settings); an untrusted one only `describe`.
 */
export function originMay(trusted: boolean, action: TrustAction): boolean {
  return trusted || UNTRUSTED_MAY.has(action);
}

/** Why an untrusted origin may not take `action`, as a clause for a message (`"would start a process"`). */
export function refusedBecause(action: TrustAction): string {
  switch (action) {
    case "describe":
      return "is only read";
    case "run-code":
      return "would run code";
    case "pre-render":
      return "would run commands when a skill loads";
    case "pre-approve-tools":
      return "would pre-approve tools";
    case "start-process":
      return "would start a process";
    case "choose-endpoint":
      return "would choose where requests with your keys or data go";
    case "read-env":
      return "would read environment variables";
    case "set-run-env":
      return "would set the environment of skill runs";
    case "weaken-approval":
      return "would weaken approvals";
    case "weaken-isolation":
      return "would weaken the sandbox";
  }
}

/**
 * Whether skills found where `scope` says are trusted before the user says anything: the user's own and
 * those named on the command line or in code are; a project's and those an MCP server serves are not.
 * (Remote roots, like a project's, are trusted only by the user's records.)
 */
export function trustedByDefault(scope: string): boolean {
  return scope !== "project" && scope !== "mcp";
}
