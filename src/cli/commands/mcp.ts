/** `skillrt mcp`: serve the skills over MCP on stdio (stdout carries only protocol messages; logs go to stderr). */
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { PROFILE_NAMES, type ProfileName } from "../../context/session-profile.js";
import { createExecutor, type ExecutorChoice } from "../../exec/create-executor.js";
import { createSkillMcpServer } from "../../mcp/create-skill-mcp-server.js";
import { createStdioTransport } from "../../mcp/create-stdio-transport.js";
import { rootOption } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import { defineCommand, usageError } from "../define-command.js";
import { fromEnvironment, type NodeParts } from "../from-environment.js";
import { listenForInterrupt } from "../listen-for-interrupt.js";
import { type CliRunSettings, cliExecutorChoice, cliSessionSettings } from "../load-cli-config.js";

const EXECUTORS: ExecutorChoice[] = ["auto", "sandbox", "local", "container"];

/** The `mcp` command. */
export const mcpCommand = defineCommand({
  name: "mcp",
  summary: "Serve the skills to MCP clients (Claude Desktop, Cursor, Codex) over stdio",
  usage: `Usage: skillrt mcp [options]

Runs an MCP server on stdin/stdout until the client disconnects. Clients get:
  tools      skill_load, skill_read, skill_list_docs, skill_select_docs, skill_unload,
             skill_search, skill_run (unless --no-exec) and the scripts of loaded skills;
             the skills catalog is in the server instructions and the skill_load description
  resources  skill://<name>/SKILL.md and skill://<name>/<path> for every skill file
  prompts    one per user-invocable skill (like /name args), with an optional 'args' argument

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
  -h, --help         Show this help.

Client configuration (e.g. Claude Desktop's claude_desktop_config.json):
  { "mcpServers": { "skills": { "command": "npx",
      "args": ["-y", "skillrt", "mcp", "--root", "/path/to/skills"] } } }
See docs/mcp.md for Cursor and Codex.

Configuration: skillrt.config.json in the current directory, then ~/.skillrt/config.json: the
"session" section (activeSkills, allow, deny), the "exec" section (executor, timeoutSeconds,
requireLoaded, allowCommands, denyCommands, hostDirs, artifactsDir) and per-skill env. Saved outputs
go to .skillrt/artifacts under the current directory (see docs/exec.md).

Exit codes: 0 after the client disconnected; 1 bad configuration; 2 usage error.
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
  },
  maxPositionals: 0,
  async run({ values }, io) {
    if (values.executor !== undefined && !EXECUTORS.includes(values.executor as ExecutorChoice))
      return usageError(io, "mcp", `--executor must be one of ${EXECUTORS.join(", ")}`);
    const profile = (values.profile ?? "skillrt") as ProfileName;
    if (!PROFILE_NAMES.includes(profile))
      return usageError(io, "mcp", `--profile must be one of ${PROFILE_NAMES.join(", ")}`);
    const log = (message: string): void => {
      io.stderr.write(`skillrt mcp: ${message}\n`);
    };
    const exec = values["no-exec"] !== true;

    // The Node preset: config files, the roots through the metadata cache; no model, store or MCP servers.
    let parts: NodeParts;
    try {
      parts = await fromEnvironment({
        cwd: io.cwd,
        env: io.env,
        roots: values.root,
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
    const settings: CliRunSettings = parts.run;
    if (hostDirFlags !== undefined) settings.hostDirs = hostDirFlags.map((dir) => path.resolve(io.cwd, dir));

    // Everything below is the library's: the executor and the server (which makes the session, the
    // workspace it deletes on close, and the tools).
    const chosen = exec ? createExecutor({ kind }) : undefined;
    if (chosen?.warning !== undefined) log(`warning: ${chosen.warning}`);
    const server = await createSkillMcpServer({
      catalog,
      sessionOptions: cliSessionSettings(config, values),
      profile,
      exec: chosen === undefined ? false : { ...settings, executor: chosen.executor },
      watch: values.watch === true,
      onWarning: (message) => log(`warning: ${message}`),
    });

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
      const problems = catalog.diagnostics().filter((d) => d.severity === "error").length;
      const roots = parts.roots.map((r) => r.path);
      log(
        `serving ${catalog.list().length} skill(s) from ${roots.join(", ") || "no roots"} over stdio` +
          `${exec ? ` (skill_run: ${chosen?.executor.kind ?? "off"})` : " (no execution)"}` +
          `${problems > 0 ? `; ${problems} skill problem(s), see 'skillrt validate'` : ""}`,
      );
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
