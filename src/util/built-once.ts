/**
 * A getter for `build()`'s value, built on its first call and kept: for values such as zod schemas whose
 * set-up would otherwise fall on every start of a process that may never use them.
 */
export function builtOnce<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
