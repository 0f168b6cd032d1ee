/**
 * Milliseconds on a monotonic clock, as `performance.now()` counts them (from another origin). The global
 * `performance` is made on first use and loads Node's perf_hooks modules then (~2.5 ms of a process
 * start): a short command such as `skillrt run NAME -- true` times its program with this instead.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
