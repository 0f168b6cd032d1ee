import { SkillrtError } from "./skillrt-error.js";

/**
 * Thrown by a delegation (`agent.delegate`, and the delegation tool, whose model reads the message) past
 * `delegation.maxPerTurn`: `limit` subagents already started during this turn, across all nesting, so
 * this one was not started.
 */
export class DelegationLimitError extends SkillrtError {
  /** The limit (`delegation.maxPerTurn`). */
  readonly limit: number;

  constructor(options: { agent: string; started: number; limit: number }) {
    super({
      code: "delegation-limit",
      message:
        `Delegation limit reached: ${options.started} subagents started this turn (limit ${options.limit}, ` +
        `delegation.maxPerTurn); '${options.agent}' was not started. Do the remaining work yourself, or ` +
        "with the answers the subagents already gave.",
    });
    this.name = "DelegationLimitError";
    this.limit = options.limit;
  }
}
