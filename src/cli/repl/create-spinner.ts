/** A one-line "waiting for the model" spinner; does nothing unless the stream is a TTY. */

/** A spinner that can be started and stopped any number of times. */
export interface Spinner {
  /** True when it draws (a TTY); otherwise every method does nothing. */
  readonly live: boolean;
  start(label?: string): void;
  /** Shows `label` from the next frame on, starting the spinner when it is not running. */
  update(label: string): void;
  /** Erases the spinner line. Safe to call when not running. */
  stop(): void;
}

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Spinner on `stream`, redrawn every `intervalMs` (default 80). A no-op on pipes and files. */
export function createSpinner(stream: NodeJS.WritableStream & { isTTY?: boolean }, intervalMs = 80): Spinner {
  if (stream.isTTY !== true) return { live: false, start() {}, update() {}, stop() {} };
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  let shown = "thinking";
  const draw = (): void => {
    stream.write(`\r\u001b[K${frames[frame++ % frames.length]} ${shown}`);
  };
  return {
    live: true,
    start(label = "thinking") {
      if (timer !== undefined) return;
      shown = label;
      draw();
      timer = setInterval(draw, intervalMs);
      timer.unref();
    },
    update(label) {
      if (timer === undefined) {
        this.start(label);
        return;
      }
      shown = label;
      draw();
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      stream.write("\r\u001b[K");
    },
  };
}
