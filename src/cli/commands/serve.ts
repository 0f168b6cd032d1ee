/**
 * `skillrt serve`: the agent as an HTTP chat service for `useChat` clients (the AI SDK's UI message
 * stream at POST /api/chat) and a chat page at `/`. Stateless between requests: run several on one
 * Postgres store behind a load balancer. stdout's first line is the URL; logs go to stderr.
 */
import fs from "node:fs";
import { PROFILE_NAMES, type ProfileName } from "../../context/profile-name.js";
import type { Placement } from "../../context/session-options.js";
import { CONVERSATION_NAMESPACE, createSkillAgent } from "../../engine/create-skill-agent.js";
import { loadConversation } from "../../engine/saved-conversation.js";
import { SkillrtError } from "../../errors/skillrt-error.js";
import type { ExecutorChoice } from "../../exec/create-executor.js";
import { type ChatHttpServer, serveChatHttp } from "../../serve/serve-chat-http.js";
import { keepBearerToken, planBearerToken } from "../bearer-token.js";
import { defineCommand, usageError } from "../define-command.js";
import { fromEnvironment, type NodeAgentParts } from "../from-environment.js";
import { intFlag } from "../int-flag.js";
import { listenForInterrupt } from "../listen-for-interrupt.js";

const EXECUTORS: ExecutorChoice[] = ["auto", "sandbox", "local", "container"];

/** The `serve` command. */
export const serveCommand = defineCommand({
  name: "serve",
  summary: "Serve the agent to chat clients (AI SDK useChat) over HTTP, with a chat page",
  usage: `Usage: skillrt serve [--port N] [--host H] [--token-file PATH | --token-env NAME | --no-auth]
                     [--store URL] [agent options]

Answers chat clients at http://HOST:PORT/api/chat with the AI SDK's UI message stream (what useChat
and DefaultChatTransport read): text, reasoning, tool calls and results, skill activity, subagents,
usage and the conversation id. The chat id is the conversation: any number of serve processes on one
Postgres store (--store postgres://…) can answer any turn of any conversation. A chat page is at /.
GET /api/chat/ID gives a saved conversation as UI messages; GET /health says whether it takes turns.
Tool calls that need approval (MCP server tools, see docs/tools.md) are put to the client the AI SDK's
way and run only after it approves; nothing is approved on its own. Runs until SIGINT/SIGTERM: then it
stops taking turns, lets running ones finish (--shutdown-grace) and cancels the rest, which are saved.
Every API request needs 'Authorization: Bearer <token>': a random token is written at start to
$SKILLRT_STATE_DIR (else $XDG_STATE_HOME/skillrt, else ~/.local/state/skillrt)/serve-http-PORT.token,
mode 600, and removed at exit; stderr says where (never the token). The page asks for it (or takes it
from the address's #token=… fragment). See docs/serve.md.

Options:
  --port N               HTTP port (default 0: any free port; the URL on stdout says which)
  --host H               interface (default 127.0.0.1); any other than loopback needs --token-file or
                         --token-env (plain HTTP: put TLS in front)
  --token-file PATH      use the token in PATH (yours, mode 600); when PATH does not exist, a random token
                         is written there (mode 600) and kept. Replicas share one token this way
  --token-env NAME       use the token in environment variable NAME (at least 32 characters)
  --no-auth              require no token (loopback only): every user and process on this machine can then
                         chat as you and run the skills' scripts. Says so at start
  --allowed-host H       accept Host H too (a name a proxy forwards; repeatable)
  --max-body N           largest request body in bytes (default 1048576)
  --max-turns N          most turns running at once; past it 503 with Retry-After (default 64)
  --turns-per-minute N   most turns one token starts a minute; past it 429 with Retry-After (default 60)
  --shutdown-grace S     seconds running turns may take to finish at SIGTERM before they are cancelled
                         and saved (default 10)
  --no-page              serve no chat page at /
  --store URL            where conversations live: postgres://USER@HOST:PORT/DATABASE (for several
                         replicas) or sqlite:PATH (env SKILLRT_STORE_URL, config store.url; default
                         .skillrt/sessions.db)
  --lock-wait SECONDS    how long a turn waits for another replica's turn on the same conversation
                         (default 30); then the turn fails and the client may retry
  --root DIR             skill folder to scan (repeatable; default: project, user and SKILLS_DIR roots)
  --refresh              fetch remote roots again
  --model ID, --provider NAME, --base-url URL
                         the model (env AGENT_MODEL, SKILLRT_PROVIDER, OPENAI_BASE_URL; see skillrt ask --help)
  --executor KIND        where skill_run runs commands: auto (default), sandbox, local, container
  --profile NAME         tool names: skillrt (default), claude, trpc, agentscope, omni, aworld
  --placement MODE       where loaded skills go: history (default) or system
  --max-steps N          most model calls per turn (default 20)
  --turn-timeout S       most seconds one turn may take (default model.turnTimeoutSeconds, 1800)
  --active NAME          load skill NAME when a conversation starts (repeatable)
  --allow GLOB, --deny GLOB
                         only offer / hide skills whose name matches GLOB (repeatable)
  --trust                trust every skill root for this run (project and remote skills may run scripts)
  -h, --help             show this help

Exit codes: 0 after SIGINT/SIGTERM; 1 bad configuration or the port taken; 2 usage error or an invalid
config file.
`,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    "token-file": { type: "string" },
    "token-env": { type: "string" },
    "no-auth": { type: "boolean" },
    "allowed-host": { type: "string", multiple: true },
    "max-body": { type: "string" },
    "max-turns": { type: "string" },
    "turns-per-minute": { type: "string" },
    "shutdown-grace": { type: "string" },
    "no-page": { type: "boolean" },
    store: { type: "string" },
    "lock-wait": { type: "string" },
    root: { type: "string", multiple: true },
    refresh: { type: "boolean" },
    model: { type: "string" },
    provider: { type: "string" },
    "base-url": { type: "string" },
    executor: { type: "string" },
    profile: { type: "string" },
    placement: { type: "string" },
    "max-steps": { type: "string" },
    "turn-timeout": { type: "string" },
    active: { type: "string", multiple: true },
    allow: { type: "string", multiple: true },
    deny: { type: "string", multiple: true },
    trust: { type: "boolean" },
  },
  maxPositionals: 0,
  async run({ values }, io) {
    const fail = (message: string) => usageError(io, "serve", message);
    if (values.executor !== undefined && !EXECUTORS.includes(values.executor as ExecutorChoice))
      return fail(`--executor must be one of ${EXECUTORS.join(", ")}`);
    const profile = (values.profile ?? "skillrt") as ProfileName;
    if (!PROFILE_NAMES.includes(profile)) return fail(`--profile must be one of ${PROFILE_NAMES.join(", ")}`);
    const placement = values.placement ?? "history";
    if (placement !== "history" && placement !== "system")
      return fail(`--placement must be history or system, got '${placement}'`);
    const ints: Record<string, number | undefined> = {};
    for (const name of ["max-body", "max-turns", "turns-per-minute", "max-steps", "turn-timeout"] as const) {
      const parsed = intFlag(values[name], name);
      if (typeof parsed === "object") return fail(parsed.error);
      ints[name] = parsed;
    }
    const seconds: Record<string, number | undefined> = {};
    for (const name of ["shutdown-grace", "lock-wait"] as const) {
      const value = values[name];
      if (value === undefined) continue;
      const n = Number(value);
      if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 86_400)
        return fail(`--${name} expects seconds from 0 to 86400, got '${value}'`);
      seconds[name] = n;
    }
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      return fail("--port must be a whole number from 0 to 65535");
    const host = values.host ?? "127.0.0.1";
    const credentialFlags = (["token-env", "token-file", "no-auth"] as const).filter(
      (f) => values[f] !== undefined,
    );
    if (credentialFlags.length > 1)
      return fail(`--${credentialFlags.join(" and --")} exclude each other: choose one`);
    const plan = planBearerToken(
      {
        host,
        tokenEnv: values["token-env"],
        tokenFile: values["token-file"],
        noAuth: values["no-auth"] === true,
      },
      io,
    );
    if ("error" in plan) return fail(plan.error);
    const log = (message: string): void => {
      io.stderr.write(`skillrt serve: ${message}\n`);
    };

    // The Node preset, once: config, catalog, store, model and tool sources are shared by every turn.
    let parts: NodeAgentParts;
    try {
      parts = await fromEnvironment({
        cwd: io.cwd,
        env: io.env,
        roots: values.root,
        refresh: values.refresh === true,
        store: values.store,
        model: {
          provider: values.provider,
          model: values.model,
          baseURL: values["base-url"],
          ...(ints["turn-timeout"] === undefined ? {} : { turnTimeoutMs: ints["turn-timeout"] * 1000 }),
        },
        executor: values.executor as ExecutorChoice | undefined,
        session: values,
        // Calls that need approval go to the client; no answer runs nothing.
        tools: { approval: { defer: true } },
        onWarning: (w) => log(`warning: ${w}`),
        ...(values.trust === true ? { trust: true } : {}),
      });
    } catch (error) {
      if (SkillrtError.isInstance(error)) {
        log(error.message);
        return error.code === "config-invalid" ? 2 : 1;
      }
      throw error;
    }
    const { store } = parts;
    if (store === undefined) {
      await parts.close();
      log("a store is required (conversations live there between requests): give --store URL");
      return 1;
    }
    const maxSteps = ints["max-steps"];
    const lockWait = seconds["lock-wait"];
    const createAgent = (conversationId: string) =>
      createSkillAgent({
        ...parts,
        sessionId: conversationId,
        // Shared by every turn: the agent of one request closes neither.
        closeStore: false,
        closeToolSources: false,
        placement: placement as Placement,
        profile,
        ...(maxSteps === undefined ? {} : { maxSteps }),
        ...(lockWait === undefined ? {} : { lockTimeoutMs: Math.round(lockWait * 1000) }),
      });

    let served: ChatHttpServer;
    try {
      served = await serveChatHttp({
        createAgent,
        loadHistory: async (id) => (await loadConversation(store, id, CONVERSATION_NAMESPACE))?.messages,
        auth: plan.token === undefined ? false : { tokens: [plan.token] },
        host,
        port,
        ...(values["allowed-host"] === undefined ? {} : { allowedHosts: values["allowed-host"] }),
        ...(ints["max-body"] === undefined ? {} : { maxBodyBytes: ints["max-body"] }),
        ...(ints["max-turns"] === undefined ? {} : { maxTurns: ints["max-turns"] }),
        ...(ints["turns-per-minute"] === undefined ? {} : { turnsPerMinute: ints["turns-per-minute"] }),
        ...(seconds["shutdown-grace"] === undefined
          ? {}
          : { shutdownGraceMs: Math.round(seconds["shutdown-grace"] * 1000) }),
        page: values["no-page"] !== true,
        onError: (error) => log(`warning: ${error.message}`),
      });
    } catch (error) {
      await parts.close();
      log(error instanceof Error ? error.message : String(error));
      return 1;
    }
    // The token file is written before the URL is printed: a client that sees the URL finds the token.
    const kept = keepBearerToken(plan, Number(new URL(served.url).port), "serve-http");
    if (!kept.ok) {
      await served.close();
      await parts.close();
      log(kept.message);
      return 1;
    }
    if (kept.note !== undefined) log(kept.note);
    if (plan.token === undefined)
      log(
        "warning: --no-auth: no credential is required. Every user and process on this machine can chat as you and run the skills' scripts; drop --no-auth to require a token",
      );
    io.stdout.write(`${served.url}\n`);
    log(
      `serving ${parts.catalog.list().length} skill(s) to chat clients at ${served.url}/api/chat` +
        `${values["no-page"] === true ? "" : `; chat page at ${served.url}/`}`,
    );
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
    log(`stopping: ${served.running()} turn(s) running`);
    await served.close();
    await parts.close();
    if (kept.removeAtExit !== undefined) fs.rmSync(kept.removeAtExit, { force: true });
    return 0;
  },
});
