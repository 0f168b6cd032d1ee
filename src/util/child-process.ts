/**
 * `node:child_process`, loaded on first use. Loading it costs a process 1.5–8 ms (its own modules, and the
 * socket modules it brings before `fetch` does), and `skillrt ask` spawns nothing before its first model
 * request: the executors take it when they first start a program or probe for one.
 */
export function childProcess(): typeof import("node:child_process") {
  return process.getBuiltinModule("node:child_process");
}
