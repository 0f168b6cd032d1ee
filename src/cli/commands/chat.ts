/** `skillrt chat`: an interactive conversation with the agent (REPL). */
import type { OnToolApproval } from "../../tools/tool-approval.js";
import type { Command } from "../command.js";
import { defineCommand } from "../define-command.js";
import { AGENT_OPTIONS_HELP, agentOptions } from "../repl/agent-options.js";
import { prepareAgent } from "../repl/prepare-agent.js";
import { runRepl } from "../repl/run-repl.js";
import { REPL_HELP } from "../repl/slash-commands.js";

const usage = `Usage: skillrt chat [options]

Starts an interactive conversation. Answers stream as they arrive; tool calls show as compact lines
(→ call, ✓ result). The conversation is saved after every turn; resume it with --session ID.
Exit code: 0 after /exit; at the end of input (Ctrl-D, a pipe), 1 when the last turn's model request
failed, else 0. When the terminal closes (SIGHUP) or on SIGTERM the running turn is cancelled, the
conversation saved and the workspace deleted; exit code 129 or 143.

${REPL_HELP}
${AGENT_OPTIONS_HELP}`;

/** The `chat` command. */
export const chatCommand: Command = defineCommand({
  name: "chat",
  summary: "Chat with the agent (interactive, with /skills, /context, …)",
  usage,
  options: agentOptions,
  maxPositionals: 0,
  async run({ values }, io) {
    // Calls that need approval are put to the user inline by the REPL (y/n/always).
    let ask: OnToolApproval = () => "no";
    // An untrusted root is put to the user the first time it matters (once per root).
    let askTrust: (root: { display: string }) => Promise<boolean> = async () => false;
    const prepared = await prepareAgent(
      "chat",
      values,
      io,
      (request) => ask(request),
      (root) => askTrust(root),
    );
    if (typeof prepared === "number") return prepared;
    const { agent } = prepared;
    try {
      return await runRepl({
        io,
        ...prepared,
        json: values.json === true,
        setApprovalPrompt: (prompt) => {
          ask = prompt;
        },
        setTrustPrompt: (prompt) => {
          askTrust = prompt;
        },
      });
    } finally {
      await agent.close();
      await prepared.otel?.shutdown();
    }
  },
});
