import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { captureIo } from "./__fixtures__/capture-io.js";
import { abortOnInterrupt, listenForInterrupt } from "./listen-for-interrupt.js";

/** An io whose stdin is the process's own, as when `skillrt` runs in a terminal. */
function processIo() {
  return { ...captureIo(), stdin: process.stdin };
}

const before = process.listenerCount("SIGINT");
afterEach(() => {
  expect(process.listenerCount("SIGINT")).toBe(before);
});

describe("Ctrl-C handling", () => {
  it("aborts the run on the first Ctrl-C and then leaves the second to Node (which ends the process)", () => {
    const interrupt = abortOnInterrupt(processIo());
    expect(process.listenerCount("SIGINT")).toBe(before + 1);
    process.emit("SIGINT", "SIGINT");
    expect(interrupt.signal.aborted).toBe(true);
    expect(process.listenerCount("SIGINT")).toBe(before);
    interrupt.release();
  });

  it("keeps listening with once: false and stops when released", () => {
    let calls = 0;
    const stop = listenForInterrupt(processIo(), () => calls++, { once: false });
    process.emit("SIGINT", "SIGINT");
    process.emit("SIGINT", "SIGINT");
    expect(calls).toBe(2);
    stop();
  });

  it("leaves process signals alone when the run has its own stdin (in-process use)", () => {
    const interrupt = abortOnInterrupt({ ...captureIo(), stdin: new PassThrough() });
    expect(process.listenerCount("SIGINT")).toBe(before);
    interrupt.release();
    expect(interrupt.signal.aborted).toBe(false);
  });

  it("listens for an io marked as reading the process's stdin without opening it (main marks its own)", () => {
    let opened = false;
    const io = {
      ...captureIo(),
      processStdin: true,
      get stdin(): NodeJS.ReadableStream {
        opened = true;
        return process.stdin;
      },
    };
    const interrupt = abortOnInterrupt(io);
    expect(process.listenerCount("SIGINT")).toBe(before + 1);
    expect(opened).toBe(false);
    interrupt.release();
  });
});
