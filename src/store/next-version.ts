/** The versioning rule every store applies to a write. */
import { StoreConflictError } from "./store-conflict-error.js";

/**
 * The version a write of session `id` produces over `current` (0 when nothing is stored yet): `current + 1`.
 * Throws a {@link StoreConflictError} when `expectedVersion` is given and is not `current` (optimistic
 * concurrency: someone else wrote since the caller read).
 */
export function nextVersion(
  id: string,
  namespace: string,
  current: number,
  expectedVersion: number | undefined,
): number {
  if (expectedVersion !== undefined && expectedVersion !== current) {
    throw new StoreConflictError({ id, namespace, expectedVersion, actualVersion: current });
  }
  return current + 1;
}
