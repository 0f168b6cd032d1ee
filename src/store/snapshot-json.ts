/** JSON encoding of session snapshots, shared by every store so they behave the same. */
import { SkillrtError } from "../errors/skillrt-error.js";
import { DEFAULT_NAMESPACE } from "./session-store.js";

/** Checks an id or namespace: a non-empty string of at most 512 characters. */
export function checkKey(kind: "id" | "namespace", value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 512) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Session ${kind} must be a non-empty string of at most 512 characters (got ${JSON.stringify(value)}).`,
    });
  }
  return value;
}

/** A checked write: its namespace (default {@link DEFAULT_NAMESPACE}) and the snapshot as JSON text. */
export interface SnapshotWrite {
  namespace: string;
  json: string;
}

/**
 * Checks the id and namespace of a `put` and serialises its data (see {@link checkKey} and
 * {@link serializeSnapshot} for what is refused).
 */
export function prepareWrite(id: string, data: unknown, namespace = DEFAULT_NAMESPACE): SnapshotWrite {
  const checked = checkKey("namespace", namespace);
  checkKey("id", id);
  return { namespace: checked, json: serializeSnapshot(id, checked, data) };
}

/** Serialises a snapshot; throws `invalid-argument` naming the session when `data` is not JSON-serialisable. */
export function serializeSnapshot(id: string, namespace: string, data: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch (error) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Session '${id}' (namespace '${namespace}'): data is not JSON-serialisable (${describe(error)}).`,
      cause: error,
    });
  }
  if (text === undefined) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: `Session '${id}' (namespace '${namespace}'): data must be a JSON value, got ${typeof data}.`,
    });
  }
  return text;
}

/** The problem with stored snapshot text, or undefined when it is valid JSON. */
export function snapshotProblem(text: unknown): string | undefined {
  if (typeof text !== "string") return `data is ${text === null ? "null" : typeof text}, not JSON text`;
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return `data is not valid JSON (${describe(error)})`;
  }
}

/** Parses stored snapshot text; throws `store-error` naming the session and where it lives when corrupt. */
export function parseSnapshot(id: string, namespace: string, text: unknown, where: string): unknown {
  if (typeof text === "string") {
    try {
      return JSON.parse(text);
    } catch {
      // reported below with the full description
    }
  }
  throw new SkillrtError({
    code: "store-error",
    message:
      `Session '${id}' (namespace '${namespace}') in ${where} is corrupt: ${snapshotProblem(text)}. ` +
      `Delete it (store.delete) or restore the database from a backup.`,
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
