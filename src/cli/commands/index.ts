/**
 * Lazy command table: `skillrt <name>` imports only its own module, so `skillrt list` does not pay
 * for the engine's dependencies at start-up. Add a command with one line here.
 */
import type { Command } from "../command.js";

export const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {};
