/**
 * Lazy command table: `skillrt <name>` imports only its own module, so `skillrt list` does not pay
 * for the engine's dependencies at start-up. Add a command with one line here.
 */
import type { Command } from "../command.js";

export const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  list: {
    summary: "List the skills found in the configured roots",
    load: async () => (await import("./list.js")).listCommand,
  },
  show: {
    summary: "Print a skill's instructions or one of its files",
    load: async () => (await import("./show.js")).showCommand,
  },
  prompt: {
    summary: "Print the skills catalog for a system prompt",
    load: async () => (await import("./prompt.js")).promptCommand,
  },
  validate: {
    summary: "Check skills against the Agent Skills spec",
    load: async () => (await import("./validate.js")).validateCommand,
  },
  search: {
    summary: "Find skills matching a query (ranked)",
    load: async () => (await import("./search.js")).searchCommand,
  },
  init: { summary: "Create a new skill skeleton", load: async () => (await import("./init.js")).initCommand },
  run: {
    summary: "Run a command in a skill's sandboxed workspace",
    load: async () => (await import("./run.js")).runCommand,
  },
  ask: {
    summary: "Ask the agent one question (streams the answer)",
    load: async () => (await import("./ask.js")).askCommand,
  },
  chat: {
    summary: "Chat with the agent (interactive REPL)",
    load: async () => (await import("./chat.js")).chatCommand,
  },
  inspect: {
    summary: "Open a local web page showing sessions, context costs and the catalog",
    load: async () => (await import("./inspect.js")).inspectCommand,
  },
  eval: {
    summary: "Check which skills load for requests, or whether a skill improves outcomes (--outcome)",
    load: async () => (await import("./eval.js")).evalCommand,
  },
  add: {
    summary: "Install skills from a folder, git, GitHub or a site (skills-lock.json)",
    load: async () => (await import("./add.js")).addCommand,
  },
  remove: {
    summary: "Uninstall skills (.agents/skills and skills-lock.json)",
    load: async () => (await import("./remove.js")).removeCommand,
  },
  install: {
    summary: "Restore the skills skills-lock.json records",
    load: async () => (await import("./install.js")).installCommand,
  },
  update: {
    summary: "Take upstream changes of the skills in skills-lock.json",
    load: async () => (await import("./update.js")).updateCommand,
  },
  lock: {
    summary: "Pin every remote root to its resolved commit or digest (skillrt.lock.json)",
    load: async () => (await import("./lock.js")).lockCommand,
  },
  trust: {
    summary: "Trust the skills of a project or remote root (scripts, allowed-tools, !`cmd`)",
    load: async () => (await import("./trust.js")).trustCommand,
  },
  mcp: {
    summary: "Serve the skills to MCP clients over stdio",
    load: async () => (await import("./mcp.js")).mcpCommand,
  },
  serve: {
    summary: "Serve the agent to chat clients (AI SDK useChat) over HTTP, with a chat page",
    load: async () => (await import("./serve.js")).serveCommand,
  },
};
