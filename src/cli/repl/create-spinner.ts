/** A one-line "waiting for the model" spinner; does nothing unless the stream is a TTY. */

/** A spinner that can be started and stopped any number of times. */
export interface Spinner {
  start(label?: string): void;
  /** Erases the spinner line. Safe to call when not running. */
  stop(): void;
}

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Spinner on `stream`, redrawn every `intervalMs` (default 80). A no-op on pipes and files. */
export function createSpinner(stream: NodeJS.WritableStream & { isTTY?: boolean }, intervalMs = 80): Spinner {
  if (stream.isTTY !== true) return { start() {}, stop() {} };
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  return {
    start(label = "thinking") {
      if (timer !== undefined) return;
      const draw = (): void => {
        stream.write(`\r\u001b[K${frames[frame++ % frames.length]} ${label}`);
      };
      draw();
      timer = setInterval(draw, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      stream.write("\r\u001b[K");
    },
  };
}
