/** The `skillrt chat` read-eval-print loop on `node:readline`, driven by injectable streams. */
import { stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { listSkills } from "../../context/list-skills.js";
import type { EngineEvent } from "../../engine/engine-event.js";
import { ProviderError } from "../../engine/provider-error.js";
import type { SkillAgent } from "../../engine/skill-agent.js";
import { createSkillBodyCosts } from "../../engine/skill-body-costs.js";
import { UnsavedTurnError } from "../../errors/unsaved-turn-error.js";
import type { OnToolApproval, ToolApprovalAnswer } from "../../tools/tool-approval.js";
import type { CliIo } from "../command.js";
import { createStyle } from "../create-style.js";
import { listenForInterrupt } from "../listen-for-interrupt.js";
import { terminalWidth } from "../terminal-width.js";
import { agentModelName, providerFailureMessage, stepLimitMessage } from "./agent-options.js";
import { completeSlash } from "./complete-slash.js";
import { createSpinner } from "./create-spinner.js";
import { createHumanRenderer, createJsonRenderer } from "./render-events.js";
import { type ChatParts, parseSlash, runSlashCommand } from "./slash-commands.js";
import { watchSkills } from "./watch-skills.js";

/** Options of {@link runRepl}. */
export interface ReplOptions {
  io: CliIo;
  agent: SkillAgent;
  /** The parts the agent was composed from (catalog, store, tool sources, model). */
  parts: ChatParts;
  /** Events as JSON lines instead of rendered text. */
  json?: boolean;
  /**
   * Receives the REPL's approval prompt (`Allow …? [y]es / [n]o / [a]lways`), which reads the answer from
   * the same input; the agent's `onApproval` should call it.
   */
  setApprovalPrompt?: (prompt: OnToolApproval) => void;
  /**
   * Receives the REPL's trust prompt (`Trust the skills of ROOT …? [y]es / [n]o`), asked once per untrusted
   * root the first time it matters; the answer is read from the same input.
   */
  setTrustPrompt?: (prompt: (root: { display: string }) => Promise<boolean>) => void;
  /** Window for a second Ctrl-C at the prompt to exit, in ms. Default 2,000. */
  exitWindowMs?: number;
}

/**
 * Reads lines until `/exit`, end of input or a double Ctrl-C at the prompt. A line starting with `/`
 * is a command; anything else is a turn for the model. Ctrl-C during a turn cancels that turn only.
 * Returns the exit code (0; 1 when the last turn ended with a provider failure and input ended).
 */
export async function runRepl(options: ReplOptions): Promise<number> {
  const { io, agent, parts } = options;
  // Body tokens of /skills, measured once per skill record for the whole chat.
  const bodyCosts = createSkillBodyCosts();
  const out = io.stdout;
  const tty = io.stdout.isTTY === true && io.stdin.isTTY === true;
  const style = createStyle(io.stdout, io.env);
  const width = terminalWidth(io.stdout, io.env) ?? 100;
  const spinner = createSpinner(io.stdout);
  // Tab completes commands and the skills the user may invoke, as they are now (skills come and go).
  const completer = (line: string): [string[], string] => {
    const skills = listSkills(agent.session);
    return completeSlash(
      line,
      skills.filter((s) => s.userInvocable).map((s) => s.name),
      skills.filter((s) => s.loaded).map((s) => s.name),
    );
  };
  const rl = createInterface({
    input: io.stdin,
    output: io.stdout,
    terminal: tty,
    historySize: 200,
    completer,
  });
  rl.setPrompt(style.bold("› "));
  // Input may end (EOF) while buffered lines are still being processed; never prompt a closed interface.
  let closed = false;
  rl.on("close", () => {
    closed = true;
  });
  const prompt = (): void => {
    if (!closed) rl.prompt();
  };

  let running: AbortController | undefined;
  let lastInterrupt = 0;
  let exitCode = 0;
  const attached: string[] = [];
  const exitWindow = options.exitWindowMs ?? 2000;

  const onInterrupt = (): void => {
    if (running !== undefined) {
      running.abort();
      return;
    }
    const now = Date.now();
    if (now - lastInterrupt < exitWindow) {
      rl.close();
      return;
    }
    lastInterrupt = now;
    out.write(`\n${style.dim("(press Ctrl-C again to exit)")}\n`);
    prompt();
  };
  rl.on("SIGINT", onInterrupt);
  // Without a terminal, readline never sees ^C: listen on the process (when we own its stdin), every time.
  const stopListening = listenForInterrupt(io, onInterrupt, { once: false });
  // The terminal closed (SIGHUP) or a supervisor stops the chat (SIGTERM): Node's default would end the
  // process at once and leave the workspace behind. The turn is cancelled, the input closed, and the chat
  // ends as after /exit, so the conversation is saved and the caller deletes the workspace.
  let hungUp: NodeJS.Signals | undefined;
  const onHangup = (signal: NodeJS.Signals): void => {
    if (hungUp !== undefined) return;
    hungUp = signal;
    // A closed terminal fails every later write (EIO): nothing can be shown any more, so nothing is.
    for (const stream of [io.stdin, io.stdout, io.stderr]) stream.on("error", () => undefined);
    running?.abort();
    try {
      rl.close();
    } catch {
      // A terminal that is gone may refuse to leave raw mode; the input is closed all the same.
    }
  };
  const stopHangup = listenForInterrupt(io, () => onHangup("SIGHUP"), { signals: ["SIGHUP"] });
  const stopTerm = listenForInterrupt(io, () => onHangup("SIGTERM"), { signals: ["SIGTERM"] });

  /** Runs one turn, rendering its events; returns the REPL's exit code after it. */
  const runTurn = async (input: string, previousCode: number): Promise<number> => {
    running = new AbortController();
    const renderer =
      options.json === true
        ? createJsonRenderer(out)
        : createHumanRenderer({ text: out, info: out, style, spinner });
    try {
      const files = attached.splice(0);
      const result = await agent.send(input, {
        abortSignal: running.signal,
        onEvent: (e) => renderer.handle(e),
        ...(files.length === 0 ? {} : { files }),
      });
      renderer.finish();
      if (result.aborted) out.write(`${style.dim("(cancelled)")}\n`);
      if (result.stepLimitReached) out.write(`${style.yellow(stepLimitMessage(result.steps))}\n`);
      if (result.limitReached !== undefined) out.write(`${style.yellow(result.limitReached.message)}\n`);
      return 0;
    } catch (error) {
      renderer.finish();
      const message = ProviderError.isInstance(error)
        ? providerFailureMessage(error, parts.modelConfig?.configured ?? true).trimEnd()
        : UnsavedTurnError.isInstance(error)
          ? // The conversation still holds the turn: the next turn's save writes it too.
            `${error.message}. The turn stays in this chat and is saved with the next one.`
          : error instanceof Error
            ? error.message
            : String(error);
      out.write(`${style.red(message)}\n`);
      return ProviderError.isInstance(error) ? 1 : previousCode;
    } finally {
      running = undefined;
    }
  };

  out.write(`skillrt chat — ${agentModelName(parts)}, session ${agent.sessionId}. /help for commands.\n`);
  prompt();
  // Skills added, edited or removed on disk reach the next request; the change is announced (at the prompt,
  // on a line of its own, then the prompt again).
  const stopWatching = watchSkills(
    parts.catalog,
    () => agent.session,
    (line) => {
      out.write(`${tty ? "\n" : ""}${style.dim(line)}\n`);
      if (running === undefined) prompt();
    },
  );
  try {
    // One iterator over the input lines: the approval prompt reads its answer from it during a turn.
    const lines = rl[Symbol.asyncIterator]();
    options.setApprovalPrompt?.(async (request) => {
      spinner.stop();
      const args = JSON.stringify(request.input ?? {});
      const grant = request.untrustedGrant;
      // Said once per question: the skill that names the tool would pre-approve it if it were trusted.
      if (grant !== undefined)
        out.write(
          `${style.dim(`(skill '${grant.skill}' names it in allowed-tools but is not trusted; ${grant.howToTrust} would pre-approve it)`)}\n`,
        );
      for (;;) {
        out.write(
          `${style.yellow(`${request.agent === undefined ? "" : `[agent ${request.agent}] `}Allow ${request.toolName} ${args.length > 200 ? `${args.slice(0, 199)}…` : args}?`)} [y]es / [n]o / [a]lways: `,
        );
        const next = await lines.next();
        if (next.done === true) return "no";
        const answer = parseApproval(next.value);
        if (answer !== undefined) return answer;
      }
    });
    options.setTrustPrompt?.(async (root) => {
      spinner.stop();
      for (;;) {
        out.write(
          `${style.yellow(`Skills from ${root.display} are not trusted yet. Trust them (run their scripts and commands; recorded as \`skillrt trust\` does)?`)} [y]es / [n]o: `,
        );
        const next = await lines.next();
        if (next.done === true) return false;
        const answer = next.value.trim().toLowerCase();
        if (answer === "y" || answer === "yes") return true;
        if (answer === "n" || answer === "no") return false;
      }
    });
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await lines.next();
      } catch (error) {
        // A terminal that went away fails the read (EIO) before or after its SIGHUP: the same hang-up.
        if (hungUp === undefined && (error as NodeJS.ErrnoException).code !== "EIO") throw error;
        onHangup("SIGHUP");
        break;
      }
      if (next.done === true || hungUp !== undefined) break;
      const raw = next.value;
      const line = raw.trim();
      if (line === "") {
        prompt();
        continue;
      }
      let input = line;
      if (line.startsWith("/")) {
        // `/attach PATH`: the file goes with the next message, staged into the workspace's work/inputs/.
        const slash = parseSlash(line);
        if (slash.name === "attach") {
          out.write(`${await attachFile(slash.rest, io.cwd, attached, style)}\n`);
          prompt();
          continue;
        }
        // A command's events (a `context: fork` skill's child) are shown as a turn's are.
        const renderer =
          options.json === true
            ? createJsonRenderer(out)
            : createHumanRenderer({ text: out, info: out, style, spinner });
        const onEvent = (event: EngineEvent): void => renderer.handle(event);
        const outcome = await runSlashCommand(
          line,
          { ...parts, agent, bodyCosts, onEvent },
          out,
          style,
          width,
        ).finally(() => renderer.finish());
        if (outcome === "exit") {
          // Quitting is what the user asked for: a failed turn before it was shown then, and is not the exit's.
          exitCode = 0;
          break;
        }
        if (outcome === "continue") {
          prompt();
          continue;
        }
        input = outcome.turn;
      }
      exitCode = await runTurn(input, exitCode);
      prompt();
    }
  } finally {
    stopWatching();
    stopListening();
    stopHangup();
    stopTerm();
    spinner.stop();
    rl.close();
    await agent.save();
  }
  // 128 + the signal's number, as a shell reports a process the signal ended.
  if (hungUp !== undefined) return hungUp === "SIGHUP" ? 129 : 143;
  return exitCode;
}

/** Checks `/attach`'s path (relative to `cwd`) and adds it to `attached`; returns the line to print. */
async function attachFile(
  rest: string,
  cwd: string,
  attached: string[],
  style: ReturnType<typeof createStyle>,
): Promise<string> {
  if (rest === "") return style.yellow("Usage: /attach PATH (the file goes with your next message)");
  const full = path.resolve(cwd, rest);
  const info = await stat(full).catch(() => undefined);
  if (info?.isFile() !== true)
    return style.red(`Cannot attach ${rest}: ${info === undefined ? "not found" : "not a file"}.`);
  attached.push(full);
  return style.dim(`attached ${rest}: staged into work/inputs/ with your next message`);
}

function parseApproval(text: string): ToolApprovalAnswer | undefined {
  const word = text.trim().toLowerCase();
  if (word === "y" || word === "yes") return "yes";
  if (word === "n" || word === "no") return "no";
  if (word === "a" || word === "always") return "always";
  return undefined;
}
