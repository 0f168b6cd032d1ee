/**
 * `skillrt mcp`: serve the skills over MCP on stdio (stdout carries only protocol messages; logs go to
 * stderr), or with `--http` over Streamable HTTP (stdout's first line is the URL).
 */
import fs from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { PROFILE_NAMES, type ProfileName } from "../../context/profile-name.js";
import { createExecutor, type ExecutorChoice } from "../../exec/create-executor.js";
import type { RunSettings } from "../../exec/run-config.js";
import { createSkillMcpServer } from "../../mcp/create-skill-mcp-server.js";
import { createStdioTransport } from "../../mcp/create-stdio-transport.js";
import { type McpHttpServer, serveMcpHttp } from "../../mcp/serve-mcp-http.js";
import { keepBearerToken, planBearerToken } from "../bearer-token.js";
import { rootOption } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import { defineCommand, usageError } from "../define-command.js";
import { fromEnvironment, type NodeParts } from "../from-environment.js";
import { intFlag } from "../int-flag.js";
import { listenForInterrupt } from "../listen-for-interrupt.js";
import { cliExecutorChoice, cliSessionSettings } from "../load-cli-config.js";

const EXECUTORS: ExecutorChoice[] = ["auto", "sandbox", "local", "container"];

/** The `mcp` command. */
export const mcpCommand = defineCommand({
  name: "mcp",
  summary: "Serve the skills to MCP clients (Claude Desktop, Cursor, Codex) over stdio or HTTP",
  usage: `Usage: skillrt mcp [options]
       skillrt mcp --http [--port N] [--host H] [--token-file PATH | --token-env NAME | --no-auth]
                          [--session-idle-timeout SECONDS] [--max-sessions N] [--stateless]

Runs an MCP server on stdin/stdout until the client disconnects, or with --http over Streamable
HTTP at http://HOST:PORT/mcp until SIGINT/SIGTERM (the URL is the first line on stdout). Over HTTP
every request needs 'Authorization: Bearer <token>': a random token is written at start to
$SKILLRT_STATE_DIR (else $XDG_STATE_HOME/skillrt, else ~/.local/state/skillrt)/mcp-http-PORT.token,
mode 600, and removed at exit; stderr says where (never the token). Clients get:
  tools      skill_load, skill_read, skill_list_docs, skill_select_docs, skill_unload,
             skill_search, skill_run (unless --no-exec) and the scripts of loaded skills;
             the skills catalog is in the server instructions and the skill_load description
  resources  skill://<name>/SKILL.md and skill://<name>/<path> for every skill file
  prompts    one per user-invocable skill (like /name args), with an optional 'args' argument
  skills     the Skills Extension (SEP-2640, io.modelcontextprotocol/skills): skills/list,
             skills/get and resources/directory/read, with the SHA-256 of every file

Options:
  --root DIR         Look for skills in DIR instead of the default roots (repeatable).
  --profile NAME     Tool names and shapes: skillrt (default), claude, trpc, agentscope, omni, aworld.
  --executor KIND    How skill_run executes: auto (default: sandbox when bubblewrap works, else
                     local), sandbox, local, container. Default from the config's exec.executor.
  --no-exec          Offer no skill_run and no script tools.
  --host-dir DIR     Let skill_run stage host:// input files from DIR (repeatable). Default: the
                     config's exec.hostDirs, else none (a client may start the server anywhere, even /).
  --active NAME      Load skill NAME when the server starts (repeatable; replaces session.activeSkills).
  --allow GLOB       Serve only skills whose name matches GLOB (repeatable; replaces session.allow).
  --deny GLOB        Hide skills whose name matches GLOB (repeatable; replaces session.deny).
  --watch            Re-scan when skills change and notify the client.
  --http             Serve over Streamable HTTP instead of stdio (one session per client).
  --port N           HTTP port (default 0: any free port; the URL on stdout says which).
  --host H           HTTP interface (default 127.0.0.1). Any other than loopback needs
                     --token-file or --token-env.
  --token-file PATH  Use the token in PATH (yours, mode 600: a file others can read is refused);
                     when PATH does not exist, a random token is written there (mode 600) and kept.
  --token-env NAME   Use the token in environment variable NAME (at least 32 characters).
  --no-auth          Require no credential (loopback only): every user and process on this machine
                     can then read the skills and run their scripts as you. Says so at start.
  --sessions-per-client N
                     Most sessions open at once per token (per address with --no-auth; with
                     --stateless, requests in flight); past it that client gets 429 while others
                     still connect. Default 32.
  --max-sessions N   Most sessions open at once. Default 1000.
  --session-idle-timeout SECONDS
                     Close a session (its server and workspace) after SECONDS without a request
                     (a request in flight or an open event stream counts as use). Default 300.
                     A full server (or a client at its cap) first closes the session idle longest,
                     if idle for 30 s or more (or SECONDS, when shorter); else it answers 503 (429)
                     with Retry-After.
  --allowed-host H   Accept Host H too (a name a proxy forwards; repeatable). Host and Origin
                     are checked on every request against DNS rebinding.
  --stateless        A fresh server per request, no session id: instances can sit behind a load
                     balancer (loaded skills do not persist between requests).
  -h, --help         Show this help.

Client configuration (e.g. Claude Desktop's claude_desktop_config.json):
  { "mcpServers": { "skills": { "command": "npx",
      "args": ["-y", "skillrt", "mcp", "--root", "/path/to/skills"] } } }
See docs/mcp.md for Cursor and Codex.

Configuration: skillrt.config.json in the current directory, then ~/.skillrt/config.json: the
"session" section (activeSkills, allow, deny), the "exec" section (executor, timeoutSeconds,
requireLoaded, allowCommands, denyCommands, hostDirs, artifactsDir) and per-skill env. Saved outputs
go to .skillrt/artifacts under the current directory (see docs/exec.md).

Exit codes: 0 after the client disconnected (or, with --http, after SIGINT/SIGTERM); 1 bad
configuration; 2 usage error.
`,
  options: {
    ...rootOption,
    profile: { type: "string" },
    executor: { type: "string" },
    "no-exec": { type: "boolean" },
    "host-dir": { type: "string", multiple: true },
    active: { type: "string", multiple: true },
    allow: { type: "string", multiple: true },
    deny: { type: "string", multiple: true },
    watch: { type: "boolean" },
    http: { type: "boolean" },
    port: { type: "string" },
    host: { type: "string" },
    "token-env": { type: "string" },
    "token-file": { type: "string" },
    "no-auth": { type: "boolean" },
    "sessions-per-client": { type: "string" },
    "max-sessions": { type: "string" },
    "session-idle-timeout": { type: "string" },
    "allowed-host": { type: "string", multiple: true },
    stateless: { type: "boolean" },
  },
  maxPositionals: 0,
  async run({ values }, io) {
    if (values.executor !== undefined && !EXECUTORS.includes(values.executor as ExecutorChoice))
      return usageError(io, "mcp", `--executor must be one of ${EXECUTORS.join(", ")}`);
    const profile = (values.profile ?? "skillrt") as ProfileName;
    if (!PROFILE_NAMES.includes(profile))
      return usageError(io, "mcp", `--profile must be one of ${PROFILE_NAMES.join(", ")}`);
    const http = values.http === true;
    if (!http) {
      for (const flag of [
        "port",
        "host",
        "token-env",
        "token-file",
        "no-auth",
        "sessions-per-client",
        "max-sessions",
        "session-idle-timeout",
        "allowed-host",
        "stateless",
      ] as const)
        if (values[flag] !== undefined) return usageError(io, "mcp", `--${flag} needs --http`);
    }
    const credentialFlags = (["token-env", "token-file", "no-auth"] as const).filter(
      (flag) => values[flag] !== undefined,
    );
    if (credentialFlags.length > 1)
      return usageError(io, "mcp", `--${credentialFlags.join(" and --")} exclude each other: choose one`);
    const perClient = intFlag(values["sessions-per-client"], "sessions-per-client");
    if (typeof perClient === "object") return usageError(io, "mcp", perClient.error);
    const maxSessions = intFlag(values["max-sessions"], "max-sessions");
    if (typeof maxSessions === "object") return usageError(io, "mcp", maxSessions.error);
    const idleSeconds = values["session-idle-timeout"];
    const idleTimeout = idleSeconds === undefined ? undefined : Number(idleSeconds);
    if (
      idleTimeout !== undefined &&
      !(Number.isFinite(idleTimeout) && idleTimeout > 0 && idleTimeout <= 86_400)
    )
      return usageError(
        io,
        "mcp",
        `--session-idle-timeout expects seconds from more than 0 to 86400, got '${idleSeconds}'`,
      );
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      return usageError(io, "mcp", "--port must be a whole number from 0 to 65535");
    const host = values.host ?? "127.0.0.1";
    const log = (message: string): void => {
      io.stderr.write(`skillrt mcp: ${message}\n`);
    };
    // Where the token lives: --token-env, a --token-file (read, or created when missing), else a generated
    // token whose file in the state directory is written once the port is known.
    const plan = http
      ? planBearerToken(
          {
            host,
            tokenEnv: values["token-env"],
            tokenFile: values["token-file"],
            noAuth: values["no-auth"] === true,
          },
          io,
        )
      : { token: undefined };
    if ("error" in plan) return usageError(io, "mcp", plan.error);
    const token = plan.token;
    const exec = values["no-exec"] !== true;

    // The Node preset: config files, the roots through the metadata cache; no model, store or MCP servers.
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
        executor: values.executor as ExecutorChoice | undefined,
        defaultHostDirs: [],
        onWarning: (w) => log(`warning: ${w}`),
      });
    } catch (error) {
      log(error instanceof Error ? error.message : String(error));
      return 1;
    }
    const { catalog, config } = parts;
    const kind = cliExecutorChoice(config, values.executor as ExecutorChoice | undefined);
    const hostDirFlags = values["host-dir"];
    const settings: RunSettings =
      hostDirFlags === undefined
        ? parts.run
        : {
            ...parts.run,
            environment: {
              ...parts.run.environment,
              hostDirs: hostDirFlags.map((dir) => path.resolve(io.cwd, dir)),
            },
          };

    // Everything below is the library's: the executor and the server (which makes the session, the
    // workspace it deletes on close, and the tools).
    const chosen = exec ? createExecutor({ kind }) : undefined;
    if (chosen?.warning !== undefined) log(`warning: ${chosen.warning}`);
    const makeServer = () =>
      createSkillMcpServer({
        catalog,
        sessionOptions: cliSessionSettings(config, values),
        profile,
        exec: chosen === undefined ? false : { ...settings, executor: chosen.executor },
        watch: values.watch === true,
        ...(parts.trust === undefined ? {} : { trust: parts.trust }),
        ...(parts.cacheDir === undefined ? {} : { cacheDir: parts.cacheDir }),
        onWarning: (message) => log(`warning: ${message}`),
      });
    const describe = (transport: string): string => {
      const problems = catalog.diagnostics().filter((d) => d.severity === "error").length;
      const roots = parts.roots.map((r) => r.path);
      return (
        `serving ${catalog.list().length} skill(s) from ${roots.join(", ") || "no roots"} over ${transport}` +
        `${exec ? ` (skill_run: ${chosen?.executor.kind ?? "off"})` : " (no execution)"}` +
        `${problems > 0 ? `; ${problems} skill problem(s), see 'skillrt validate'` : ""}`
      );
    };

    if (http) {
      let served: McpHttpServer;
      try {
        served = await serveMcpHttp({
          createServer: makeServer,
          host,
          port,
          auth: token === undefined ? false : { token },
          ...(perClient === undefined ? {} : { maxSessionsPerClient: perClient }),
          ...(maxSessions === undefined ? {} : { maxSessions }),
          ...(idleTimeout === undefined
            ? {}
            : { idleSessionMs: Math.max(1, Math.round(idleTimeout * 1000)) }),
          ...(values["allowed-host"] === undefined ? {} : { allowedHosts: values["allowed-host"] }),
          stateless: values.stateless === true,
          onError: (error) => log(`warning: ${error.message}`),
        });
      } catch (error) {
        log(error instanceof Error ? error.message : String(error));
        return 1;
      }
      // The token file is written before the URL is printed: a client that sees the URL finds the token.
      const kept = keepBearerToken(plan, Number(new URL(served.url).port || 80), "mcp-http");
      if (!kept.ok) {
        await served.close();
        log(kept.message);
        return 1;
      }
      if (kept.note !== undefined) log(kept.note);
      else if (token === undefined)
        log(
          "warning: --no-auth: no credential is required. Every user and process on this machine can read these skills and run their scripts as you; drop --no-auth to require a token",
        );
      io.stdout.write(`${served.url}\n`);
      log(describe(`Streamable HTTP at ${served.url}${values.stateless === true ? " (stateless)" : ""}`));
      await new Promise<void>((resolve) => {
        const stop = listenForInterrupt(
          io,
          () => {
            stop();
            resolve();
          },
          { signals: ["SIGINT", "SIGTERM"] },
        );
      });
      await served.close();
      if (kept.removeAtExit !== undefined) fs.rmSync(kept.removeAtExit, { force: true });
      return 0;
    }

    const server = await makeServer();
    const closed = new Promise<void>((resolve) => {
      const previous = server.server.onclose;
      server.server.onclose = () => {
        previous?.();
        resolve();
      };
    });
    const close = (): void => {
      void server.close();
    };
    io.stdin.once("end", close);
    const stopListening = listenForInterrupt(io, close, { signals: ["SIGINT", "SIGTERM"] });
    try {
      // Oversized and malformed messages are skipped, answered with a JSON-RPC error and logged here.
      server.server.onerror = (error) => log(`warning: ${error.message}`);
      await server.connect(createStdioTransport(readable(io), writable(io)));
      log(describe("stdio"));
      await closed;
      return 0;
    } finally {
      io.stdin.removeListener("end", close);
      stopListening();
      // Resolves once the server deleted its workspace.
      await server.close();
    }
  },
});

function readable(io: CliIo): Readable {
  return io.stdin instanceof Readable ? io.stdin : new Readable().wrap(io.stdin);
}

function writable(io: CliIo): Writable {
  if (io.stdout instanceof Writable) return io.stdout;
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      io.stdout.write(chunk, (error) => callback(error ?? null));
    },
  });
}
