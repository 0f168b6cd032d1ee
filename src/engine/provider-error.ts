/** The error a run ends with when the model provider keeps failing. */

import type { ModelMessage } from "ai";
import { APICallError } from "ai";
import { SkillrtError } from "../errors/skillrt-error.js";
import { ModelTimeoutError } from "./model-timeout-error.js";

/** Thrown by `runAgent` when the provider fails for good (after the retries). */
export class ProviderError extends SkillrtError {
  /** HTTP status of the last attempt, when there was a response. */
  readonly status: number | undefined;
  /** Messages of the steps that completed before the failure (append them to keep the progress). */
  readonly messages: ModelMessage[];
  /** True when the provider stayed silent past a deadline (it was reached, so it is no configuration problem). */
  readonly timedOut: boolean;

  constructor({
    message,
    status,
    messages = [],
    cause,
    timedOut = false,
  }: {
    message: string;
    status?: number | undefined;
    messages?: ModelMessage[];
    cause?: unknown;
    timedOut?: boolean;
  }) {
    super({ code: "provider-error", message, cause });
    this.name = "ProviderError";
    this.status = status;
    this.messages = messages;
    this.timedOut = timedOut;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return SkillrtError.isInstance(error) && error.code === "provider-error";
  }
}

function findApiCallError(error: unknown): APICallError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (APICallError.isInstance(current)) return current;
    if (typeof current === "object" && "lastError" in current) current = current.lastError;
    else current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

function findTimeout(error: unknown): ModelTimeoutError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    if (ModelTimeoutError.isInstance(current)) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/** Node's and undici's codes for a failed connection or socket (`ECONNRESET`, `UND_ERR_SOCKET`, …). */
const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/;

function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    if (typeof current === "object" && "code" in current && typeof current.code === "string") {
      if (NETWORK_CODE.test(current.code)) return current.code;
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/**
 * The messages along `error`'s cause chain, joined: `fetch failed` alone does not say why, its cause
 * (`other side closed`, `connect ECONNREFUSED …`) does.
 */
function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    const text = messageOf(current);
    if (text !== "" && !parts.some((p) => p.includes(text))) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ");
}

/**
 * The message of an Error, a string, or a plain object a stream reported as its error part (`{ message }`,
 * `{ error: { message } }`, else its JSON): a provider's mid-stream error is such an object, not an Error.
 */
function messageOf(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null) return value === undefined ? "" : String(value);
  const { message, error } = value as { message?: unknown; error?: unknown };
  if (typeof message === "string") return message;
  if (typeof error === "string") return error;
  if (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { message?: unknown }).message === "string"
  )
    return (error as { message: string }).message;
  try {
    return JSON.stringify(value).slice(0, 300);
  } catch {
    return String(value);
  }
}

/**
 * What the provider said in an error response: the `error.message` (or `message`, or `error`) of a JSON
 * body, else the body's text.
 */
function providerSaid(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: unknown; message?: unknown };
    const error = json.error;
    if (
      typeof error === "object" &&
      error !== null &&
      "message" in error &&
      typeof error.message === "string"
    )
      return error.message;
    if (typeof json.message === "string") return json.message;
    if (typeof error === "string") return error;
  } catch {
    // Not JSON: the text as it is.
  }
  return body;
}

function hintFor(status: number | undefined, code: string | undefined): string {
  if (code === "ECONNREFUSED" || code === "ENOTFOUND")
    return "Check that the server is running and that the base URL (--base-url, OPENAI_BASE_URL or ANTHROPIC_BASE_URL) is right.";
  if (status === 401 || status === 403)
    return "Check the API key (OPENAI_API_KEY or ANTHROPIC_API_KEY) and that it may use this model.";
  if (status === 404) return "Check the model name (--model or AGENT_MODEL) and the base URL.";
  if (status === 429) return "The provider is rate-limiting; wait a minute, or raise SKILLRT_MAX_ATTEMPTS.";
  if (status !== undefined && status >= 500)
    return "The provider is failing on its side; try again later or use another model or provider.";
  if (status === 400) return "The provider rejected the request; the model may not support tool calls.";
  return "Check the provider settings (see `skillrt ask --help`).";
}

/**
 * Turns whatever a provider call threw into a {@link ProviderError} with a one-paragraph message: what
 * failed (`what`, e.g. "openai-compatible model 'x' at URL"), the HTTP status, network error or passed
 * deadline, and what to try.
 */
export function toProviderError(error: unknown, what: string, messages: ModelMessage[] = []): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const timeout = findTimeout(error);
  if (timeout !== undefined) {
    const setting = timeout.deadline === "first-byte" ? "firstByteTimeoutSeconds" : "idleTimeoutSeconds";
    const message = `The model provider failed: ${what} ${timeout.message}. If the model is only slow, raise the deadline with --model-timeout SECONDS or model.${setting} in skillrt.config.json; otherwise check the server.`;
    return new ProviderError({ message, messages, cause: error, timedOut: true });
  }
  const api = findApiCallError(error);
  const status = api?.statusCode;
  const code = networkCode(error);
  // The provider's own words for an HTTP error (its body's message), else every message on the cause chain.
  const body = api?.responseBody?.trim() ?? "";
  const detailSource = body !== "" ? providerSaid(body) : causeChain(error);
  const detail = detailSource.replace(/\s+/g, " ").trim().slice(0, 300);
  const how =
    status !== undefined ? `HTTP ${status}` : code !== undefined ? `network error ${code}` : "an error";
  const message = `The model provider failed: ${what} answered with ${how}${detail === "" ? "" : ` (${detail})`}. ${hintFor(status, code)}`;
  return new ProviderError({ message, status, messages, cause: error });
}
