/** `skillrt ask PROMPT`: one turn with the agent, the answer streamed to stdout. */
import { ProviderError } from "../../engine/provider-error.js";
import { SkillrtError } from "../../errors/skillrt-error.js";
import { UnsavedTurnError } from "../../errors/unsaved-turn-error.js";
import type { Command } from "../command.js";
import { createStyle } from "../create-style.js";
import { defineCommand, usageError } from "../define-command.js";
import { keepUnsavedTurn, readUnsavedTurn, restoreUnsavedTurn } from "../keep-unsaved-turn.js";
import { listenForInterrupt } from "../listen-for-interrupt.js";
import {
  AGENT_OPTIONS_HELP,
  agentOptions,
  providerFailureMessage,
  stepLimitMessage,
} from "../repl/agent-options.js";
import { createSpinner } from "../repl/create-spinner.js";
import { prepareAgent } from "../repl/prepare-agent.js";
import { createHumanRenderer, createJsonRenderer } from "../repl/render-events.js";
import { watchSkills } from "../repl/watch-skills.js";

const usage = `Usage: skillrt ask PROMPT [options]

Runs one turn of the agent (as many model steps as it needs) with the skills of the catalog, and
streams the answer to stdout. Tool calls are shown on stderr (→ call, ✓ result), and at the end the
session id to continue the conversation with (--session ID). With --json, every engine event is printed
as one JSON line on stdout instead, the last one {"type":"session","sessionId":ID}.

${AGENT_OPTIONS_HELP}  --restore FILE         first save a turn kept when the store could not take it (the file named
                         then) into its session, then ask PROMPT in that session
Exit codes: 0 answered, 1 provider failure, the step limit reached, or the turn stopped by the output cap
(model.maxOutputTokens) or its deadline (--turn-timeout) (the session is saved first), or a session store
failure (unreachable, or the session busy in another process past the wait), 2 usage error or an invalid
config file, 130 cancelled (Ctrl-C), 143 terminated (SIGTERM); a cancelled turn is saved too.
`;

/** The stderr line of a saved, answered `ask`: the session id and how to continue it. */
export function sessionLine(id: string): string {
  return `skillrt ask: session ${id} (continue it with --session ${id})`;
}

/** The `ask` command. */
export const askCommand: Command = defineCommand({
  name: "ask",
  summary: "Ask the agent one question (streams the answer)",
  usage,
  options: { ...agentOptions, restore: { type: "string" } },
  minPositionals: 1,
  async run({ values: given, positionals }, io) {
    let values = given;
    const restore = given.restore;
    const kept = restore === undefined ? undefined : await readUnsavedTurn(restore);
    if (kept !== undefined) {
      if (given.session !== undefined && given.session !== kept.sessionId)
        return usageError(
          io,
          "ask",
          `--restore ${restore} is a turn of session '${kept.sessionId}', not '${given.session}'`,
        );
      values = { ...given, session: kept.sessionId };
    }
    // ask cannot put a question to the user: a call that needs approval is refused, saying how to allow it.
    const prepared = await prepareAgent(
      "ask",
      values,
      io,
      (request) => {
        const grant = request.untrustedGrant;
        const how =
          (grant === undefined
            ? ""
            : `skill '${grant.skill}' names it in allowed-tools but is not trusted, so it pre-approves nothing: trust it with ${grant.howToTrust}, or `) +
          `rerun with --yes to approve tool calls, or add "${request.toolName}" to tools.allow in skillrt.config.json`;
        io.stderr.write(`skillrt ask: refused ${request.toolName} (it needs approval): ${how}\n`);
        return { deny: `skillrt ask cannot ask the user for approval; ${how}` };
      },
      undefined,
      kept === undefined || restore === undefined
        ? undefined
        : async (parts) => {
            if (parts.store === undefined)
              throw new SkillrtError({
                code: "invalid-argument",
                message: "--restore needs a session store",
              });
            await restoreUnsavedTurn(parts.store, restore, kept);
            io.stderr.write(`skillrt ask: restored the kept turn into session ${kept.sessionId}.\n`);
          },
    );
    if (typeof prepared === "number") return prepared;
    const { agent, parts } = prepared;
    const prompt = positionals.join(" ");
    const style = createStyle(io.stderr, io.env);
    const renderer =
      values.json === true
        ? createJsonRenderer(io.stdout)
        : createHumanRenderer({ text: io.stdout, info: io.stderr, style, spinner: createSpinner(io.stderr) });
    // Ctrl-C or a SIGTERM (a supervisor, `timeout`) ends the step at once; the turn is saved as it stands.
    const interrupt = new AbortController();
    let signalled: NodeJS.Signals | undefined;
    const release = listenForInterrupt(
      io,
      () => {
        signalled ??= "SIGINT";
        interrupt.abort();
      },
      { signals: ["SIGINT"] },
    );
    const releaseTerm = listenForInterrupt(
      io,
      () => {
        signalled ??= "SIGTERM";
        interrupt.abort();
      },
      { signals: ["SIGTERM"] },
    );
    // A skill added, edited or removed during the turn reaches its next step (said on stderr).
    const stopWatching = watchSkills(
      parts.catalog,
      () => agent.session,
      (line) => io.stderr.write(`${style.dim(line)}\n`),
    );
    // The answer as streamed, kept with the turn when the store will not take it.
    let answer = "";
    try {
      const result = await agent.send(prompt, {
        abortSignal: interrupt.signal,
        onEvent: (e) => {
          if (e.type === "text-delta") answer += e.text;
          renderer.handle(e);
        },
      });
      renderer.finish();
      if (result.aborted) {
        io.stderr.write(
          `skillrt ask: ${signalled === "SIGTERM" ? "terminated" : "cancelled"}; session saved as ${agent.sessionId}.\n`,
        );
        return signalled === "SIGTERM" ? 143 : 130;
      }
      // An output cap or the turn's deadline stopped it: the answer is unfinished (exit 1), what came is saved.
      if (result.limitReached !== undefined) {
        const saved =
          parts.store === undefined
            ? "the partial answer was not saved (no store)"
            : `the partial answer is saved in session ${agent.sessionId}; resume with --session ${agent.sessionId}`;
        io.stderr.write(`skillrt ask: ${result.limitReached.message}; ${saved}.\n`);
        return 1;
      }
      if (result.stepLimitReached) {
        io.stderr.write(
          `skillrt ask: ${stepLimitMessage(result.steps)}; session saved as ${agent.sessionId}.\n`,
        );
        return 1;
      }
      // The id to resume with (a saved conversation only): the last stderr line, and with --json the last
      // stdout line, so a script can pick it up.
      if (parts.store !== undefined) {
        if (values.json === true)
          io.stdout.write(`${JSON.stringify({ type: "session", sessionId: agent.sessionId })}\n`);
        io.stderr.write(`${sessionLine(agent.sessionId)}\n`);
      }
      return 0;
    } catch (error) {
      renderer.finish();
      // The store would not take the turn, even after retrying: the turn is kept in a file, nothing is lost.
      if (UnsavedTurnError.isInstance(error)) {
        io.stderr.write(`skillrt ask: ${error.message}\n`);
        const kept = keepUnsavedTurn(error, { question: prompt, answer }, io.env);
        if ("file" in kept) {
          io.stderr.write(
            `The turn (question, answer and conversation) is kept in ${kept.file}.\n` +
              `When the store is back, save it and go on with: skillrt ask --restore '${kept.file}' PROMPT\n`,
          );
        } else {
          io.stderr.write(
            `The turn could not be kept in a file either (${kept.problem}); its answer:\n${answer}\n`,
          );
        }
        return 1;
      }
      // The session store: unreachable, busy (another process is mid-turn on it), or saved by another meanwhile.
      if (SkillrtError.isInstance(error) && error.code === "store-error") {
        io.stderr.write(`skillrt ask: ${error.message}\n`);
        return 1;
      }
      if (!ProviderError.isInstance(error)) throw error;
      io.stderr.write(`skillrt ask: ${providerFailureMessage(error, parts.modelConfig.configured)}`);
      io.stderr.write(`Session saved as ${agent.sessionId}; resume with --session ${agent.sessionId}.\n`);
      return 1;
    } finally {
      stopWatching();
      release();
      releaseTerm();
      await agent.close();
      await prepared.otel?.shutdown();
    }
  },
});
