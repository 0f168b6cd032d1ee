import { SkillrtError } from "../errors/skillrt-error.js";

/**
 * Thrown by `SessionStore.put` when `expectedVersion` does not match the stored version: another writer
 * got there first. Re-read the session, merge or redo the step, and write again with the new version.
 */
export class StoreConflictError extends SkillrtError {
  readonly sessionId: string;
  readonly namespace: string;
  readonly expectedVersion: number;
  /** Version found in the store; 0 when the session does not exist. */
  readonly actualVersion: number;

  constructor(options: { id: string; namespace: string; expectedVersion: number; actualVersion: number }) {
    const found =
      options.actualVersion === 0 ? "it does not exist" : `it is at version ${options.actualVersion}`;
    super({
      code: "store-error",
      message:
        `Session '${options.id}' (namespace '${options.namespace}') was expected at version ` +
        `${options.expectedVersion}, but ${found}. Another writer changed it: read it again and retry.`,
    });
    this.name = "StoreConflictError";
    this.sessionId = options.id;
    this.namespace = options.namespace;
    this.expectedVersion = options.expectedVersion;
    this.actualVersion = options.actualVersion;
  }

  /** True for a {@link StoreConflictError}, also across copies of the package. */
  static override isInstance(error: unknown): error is StoreConflictError {
    return SkillrtError.isInstance(error) && error.name === "StoreConflictError";
  }
}
