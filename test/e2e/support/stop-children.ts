/** Ending the long-running CLI processes a test started (`skillrt inspect`, servers). */
import type { ChildProcess } from "node:child_process";

/**
 * Sends each child SIGTERM and resolves once every one has exited, so whatever it writes on the way out
 * (V8's code cache in its HOME, a store) is done before the test removes its folders.
 */
export function stopChildren(children: ChildProcess[]): Promise<void> {
  return Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  ).then(() => undefined);
}
