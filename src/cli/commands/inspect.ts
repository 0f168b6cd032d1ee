/** `skillrt inspect`: a local web page showing sessions, what each turn cost, and the catalog. */
import { spawn } from "node:child_process";
import path from "node:path";
import { createCatalogViewer } from "../../inspect/build-catalog-view.js";
import { createInspector } from "../../inspect/create-inspector.js";
import { isLoopbackHost } from "../../inspect/is-loopback-host.js";
import { openInspectStore } from "../../inspect/open-inspect-store.js";
import { rootOption } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import { defineCommand, usageError } from "../define-command.js";
import { fromEnvironment, type NodeParts, type StoreLocation, storeLocation } from "../from-environment.js";
import { intFlag } from "../int-flag.js";
import { listenForInterrupt } from "../listen-for-interrupt.js";
import { cliSessionSettings } from "../load-cli-config.js";
import { openMcpSkills } from "../open-mcp-skills.js";

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;

/** The `inspect` command. */
export const inspectCommand = defineCommand({
  name: "inspect",
  summary: "Open a local web page showing sessions, context costs and the catalog",
  usage: `Usage: skillrt inspect [options]

Serves a local web app and prints its URL as the first line of stdout. Pages:
  Sessions   every saved conversation: start, last activity, turns, model, loaded skills, tokens
  Session    per turn, a bar of what the model saw (preamble, catalog, skill bodies, docs, read
             files, history and tool results) in tokens, against the context window and the
             eviction threshold; the skill events and tool calls in order; click a block for its text
  Catalog    every skill with scope, diagnostics, body tokens and how the catalog block lists it
             under the budget (full, shortened, name only, left out, hidden); skill_search's search
Pages update live while 'skillrt chat' or 'skillrt ask' writes to the same store.

Options:
  --store URL            Session store: a SQLite file (PATH or sqlite:PATH) or
                         postgres://USER:PASSWORD@HOST:PORT/DATABASE. Default as in ask and chat:
                         SKILLRT_STORE_URL, the config's store section, else .skillrt/sessions.db
                         under the current directory.
  --root DIR             Look for skills in DIR instead of the default roots (repeatable).
  --port N               Port to listen on (default 7420; 0 picks a free port).
  --host H               Address to listen on (default 127.0.0.1). Any other than loopback makes
                         your conversations readable from the network: a warning is printed.
  --catalog-budget N     Token budget of the catalog block (default as in a session).
  --context-window N     The model's context window (sets the default catalog budget to 1%).
  --open                 Open the page in the default browser.
  -h, --help             Show this help.

Stops on Ctrl-C. Exit codes: 0 stopped; 1 the store or the address could not be opened; 2 usage error.
`,
  options: {
    ...rootOption,
    store: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    "catalog-budget": { type: "string" },
    "context-window": { type: "string" },
    open: { type: "boolean" },
  },
  maxPositionals: 0,
  async run({ values }, io) {
    const fail = (message: string): number => {
      io.stderr.write(`skillrt inspect: ${message}\n`);
      return 1;
    };
    const port = values.port === undefined ? 7420 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      return usageError(io, "inspect", `--port expects a port number (0-65535), got '${values.port}'`);
    const budget = intFlag(values["catalog-budget"], "catalog-budget");
    if (typeof budget === "object") return usageError(io, "inspect", budget.error);
    const contextWindow = intFlag(values["context-window"], "context-window");
    if (typeof contextWindow === "object") return usageError(io, "inspect", contextWindow.error);
    const host = values.host ?? "127.0.0.1";

    // The Node preset (config files, the roots through the metadata cache), and the store ask and chat
    // write to: --store, SKILLRT_STORE_URL, the config's store section, else .skillrt/sessions.db.
    let parts: NodeParts;
    try {
      parts = await fromEnvironment({
        cwd: io.cwd,
        env: io.env,
        roots: values.root,
        refresh: values.refresh === true,
        model: false,
        store: false,
        tools: false,
        executor: false,
        onWarning: (w) => io.stderr.write(`skillrt inspect: warning: ${w}\n`),
      });
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
    const { config } = parts;
    const location = storeLocation(values.store, io.env, config.file, io.cwd);
    const opened = await openInspectStore({
      url: inspectUrl(location),
      cwd: location.cwd,
      ...(location.schema === undefined ? {} : { schema: location.schema }),
    });
    if (!opened.ok) return fail(opened.message);
    // Skills the config's MCP servers serve are in the catalog view too, from their listings (no file read).
    const served = await openMcpSkills(parts.catalog, io);
    const catalog = served.catalog;
    const { store } = opened;
    const viewer = createCatalogViewer({
      catalog,
      ...cliSessionSettings(config),
      ...(budget === undefined ? {} : { catalogBudget: budget }),
      ...(contextWindow === undefined ? {} : { contextWindow }),
    });
    const secrets = Object.entries(io.env)
      .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= 8)
      .map(([, value]) => value as string);
    const started = await createInspector({
      store,
      catalog: viewer,
      host,
      port,
      secrets,
      onWarning: (message) => io.stderr.write(`skillrt inspect: warning: ${message}\n`),
    });
    if (!started.ok) {
      await served.close();
      await store.close();
      return fail(started.message);
    }
    const { inspector } = started;
    io.stdout.write(`${inspector.url}\n`);
    if (!isLoopbackHost(host))
      io.stderr.write(
        `skillrt inspect: warning: listening on ${host}, not loopback: anyone who can reach this address can read your conversations\n`,
      );
    io.stderr.write(
      `skillrt inspect: reading ${opened.where}; ${catalog.list().length} skill(s) in the catalog. Ctrl-C stops.\n`,
    );
    if (values.open === true) openBrowser(inspector.url, io);

    await new Promise<void>((resolve) => {
      const stop = listenForInterrupt(io, () => resolve(), { signals: ["SIGINT", "SIGTERM"] });
      inspector.server.once("close", () => {
        stop();
        resolve();
      });
    });
    await inspector.close();
    await served.close();
    await store.close();
    return 0;
  },
});

/** The URL `openInspectStore` takes for a location: a relative `sqlite:` path resolved from its directory. */
function inspectUrl(location: StoreLocation): string | undefined {
  const { url } = location;
  if (url === undefined || url.trim() === "") return undefined;
  // Another kind, or `sqlite://HOST/…` (refused, redacted, by the store opener): passed on as given.
  if (!url.startsWith("sqlite:") || /^sqlite:\/\/(?!\/)/i.test(url)) return url;
  const file = url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
  return file === ":memory:" ? url : `sqlite:${path.resolve(location.cwd, file)}`;
}

function openBrowser(url: string, io: CliIo): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () =>
      io.stderr.write(`skillrt inspect: could not open a browser; open ${url} yourself\n`),
    );
    child.unref();
  } catch {
    io.stderr.write(`skillrt inspect: could not open a browser; open ${url} yourself\n`);
  }
}
