/**
 * The limits that always end a turn: an output cap per model call and a wall-clock deadline per turn. A
 * model that streams forever (a buggy or hostile endpoint that ignores `max_tokens`, a loop of repeated
 * text) is stopped by one of them; the turn then ends with what was streamed so far saved.
 */
import { SkillrtError } from "../errors/skillrt-error.js";
import { formatDeadline } from "./model-timeout-error.js";

/** Default most output tokens of one model call: 32,000 (far above a normal answer). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 32_000;
/** Default most wall-clock time of one turn: 30 minutes. */
export const DEFAULT_TURN_TIMEOUT_MS = 1_800_000;
/**
 * Characters of streamed output counted per token of the cap when skillrt enforces it itself: no
 * tokenizer's tokens average more than a few characters on real text, so an answer the provider caps
 * honestly ends first, and only an endpoint that ignores the cap (or streams one token of junk forever)
 * reaches this count. Counted, not tokenised: the count costs nothing per chunk.
 */
export const OUTPUT_CHARS_PER_TOKEN = 8;

/** Which limit ended the turn: the output cap of one model call, or the turn's deadline. */
export type TurnLimitKind = "output" | "deadline";

/** What a turn stopped by a limit reports (`TurnResult.limitReached`, the `turn-limit` event). */
export interface TurnLimit {
  limit: TurnLimitKind;
  /** For people: which limit, its value, and the setting that raises it. */
  message: string;
}

/**
 * The abort reason of a turn stopped by a limit. Not thrown to the host: the turn resolves with
 * `limitReached` (and the text streamed so far) instead.
 */
export class TurnLimitError extends SkillrtError {
  readonly limit: TurnLimitKind;

  constructor({ limit, message }: TurnLimit) {
    super({ code: "turn-limit", message });
    this.name = "TurnLimitError";
    this.limit = limit;
  }

  static override isInstance(error: unknown): error is TurnLimitError {
    return SkillrtError.isInstance(error) && error.code === "turn-limit";
  }
}

/** The reason of a model call that streamed past `OUTPUT_CHARS_PER_TOKEN × maxOutputTokens` characters. */
export function outputCapError(maxOutputTokens: number): TurnLimitError {
  return new TurnLimitError({
    limit: "output",
    message: `the model kept writing past the output cap of ${maxOutputTokens} tokens for one call (more than ${maxOutputTokens * OUTPUT_CHARS_PER_TOKEN} characters) and was stopped; raise model.maxOutputTokens in skillrt.config.json if the answer is meant to be that long`,
  });
}

/** The limit of a model call the provider itself cut at the output cap (finish reason `length`). */
export function outputCutLimit(maxOutputTokens: number | undefined): TurnLimit {
  const cap =
    maxOutputTokens === undefined ? "its output limit" : `the output cap of ${maxOutputTokens} tokens`;
  return {
    limit: "output",
    message: `the model's answer was cut at ${cap} (finish reason 'length'); raise model.maxOutputTokens in skillrt.config.json if the answer is meant to be that long`,
  };
}

/** The reason of a turn that ran past its deadline. */
export function turnDeadlineError(timeoutMs: number): TurnLimitError {
  return new TurnLimitError({
    limit: "deadline",
    message: `the turn ran past its deadline of ${formatDeadline(timeoutMs)} and was stopped; raise it with --turn-timeout SECONDS or model.turnTimeoutSeconds in skillrt.config.json`,
  });
}
