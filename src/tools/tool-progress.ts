/**
 * Progress of a tool call that takes a while: an MCP server's `notifications/progress` during its tool call,
 * or the output of a `skill_run` command as it arrives. Reported to the host (the agent turns each report
 * into a `tool-progress` event; chat shows it on its status line) and never to the model. Reports are
 * throttled per call and their text is cleaned, so a server or script that floods cannot flood a terminal.
 */
import { oneLine } from "../util/terminal-text.js";

/** One progress report of a running tool call. */
export interface ToolProgress {
  toolCallId: string;
  toolName: string;
  /** How far along (the MCP server's `progress`), when the tool says. */
  progress?: number;
  /** Of how much (the MCP server's `total`), when known. */
  total?: number;
  /** What it is doing: the server's message, or the command's last output line. At most 200 characters. */
  message?: string;
  /** Time since the call started, in ms. */
  elapsedMs: number;
}

/** Receives progress reports. */
export type ToolProgressListener = (progress: ToolProgress) => void;

/** What a tool reports; the reporter adds the call's identity and elapsed time. */
export type ProgressUpdate = Omit<ToolProgress, "toolCallId" | "toolName" | "elapsedMs">;

/**
 * A reporter for one call: at most one report per `intervalMs` (default 250) goes to `listener`; the
 * latest report held back is delivered when the interval ends or, if the call ends first, by
 * {@link ProgressReporter.done}. Without a listener, a no-op.
 */
export function progressReporter(
  listener: ToolProgressListener | undefined,
  call: { toolCallId: string; toolName: string },
  intervalMs = 250,
): ProgressReporter {
  if (listener === undefined) return { report() {}, done() {} };
  const started = performance.now();
  let lastSent = Number.NEGATIVE_INFINITY;
  let held: ProgressUpdate | undefined;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  const send = (update: ProgressUpdate): void => {
    lastSent = performance.now();
    const message = update.message === undefined ? undefined : oneLine(update.message);
    listener({
      ...call,
      ...(Number.isFinite(update.progress) ? { progress: update.progress } : {}),
      ...(Number.isFinite(update.total) ? { total: update.total } : {}),
      ...(message === undefined || message === "" ? {} : { message }),
      elapsedMs: Math.round(lastSent - started),
    });
  };
  return {
    report(update) {
      if (finished) return;
      const wait = lastSent + intervalMs - performance.now();
      if (wait <= 0) {
        send(update);
        return;
      }
      held = update;
      timer ??= setTimeout(() => {
        timer = undefined;
        if (held !== undefined && !finished) send(held);
        held = undefined;
      }, wait);
      timer.unref?.();
    },
    done() {
      if (finished) return;
      finished = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      // The last word before the result: a report held back is delivered now.
      if (held !== undefined) send(held);
      held = undefined;
    },
  };
}

/** Reports progress of one call. */
export interface ProgressReporter {
  report(update: ProgressUpdate): void;
  /** The call ended: a report held back is delivered, then nothing more. */
  done(): void;
}
