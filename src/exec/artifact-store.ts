/** Versioned artifact storage: each `save` of a name adds version v1, v2, …; `get` reads one version. */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** A stored artifact version. */
export interface ArtifactRef {
  name: string;
  version: number;
}

/** What `get` returns. */
export interface Artifact extends ArtifactRef {
  bytes: Uint8Array;
  mimeType: string;
}

/** Where run outputs are persisted and `artifact://` inputs come from. */
export interface ArtifactStore {
  /** Stores a new version of `name` (v1 first). */
  save(name: string, bytes: Uint8Array, mimeType: string): Promise<ArtifactRef>;
  /** The given version, or the latest when `version` is omitted; `undefined` when absent. */
  get(name: string, version?: number): Promise<Artifact | undefined>;
  /** Versions stored for `name`, ascending. */
  versions(name: string): Promise<number[]>;
}

function encodeName(name: string): string {
  return encodeURIComponent(name).replace(/\./g, "%2E");
}

/**
 * An `ArtifactStore` in a directory: `<dir>/<url-encoded name>/v<N>.bin` plus `v<N>.json` (mime type).
 * Writes within one process are serialised per name so concurrent saves get distinct versions.
 */
export function createFsArtifactStore(dir: string): ArtifactStore {
  const queues = new Map<string, Promise<unknown>>();
  async function versions(name: string): Promise<number[]> {
    try {
      const entries = await readdir(path.join(dir, encodeName(name)));
      return entries
        .map((e) => /^v(\d+)\.bin$/.exec(e)?.[1])
        .filter((v): v is string => v !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
    } catch {
      return [];
    }
  }
  return {
    versions,
    save(name, bytes, mimeType) {
      const previous = queues.get(name) ?? Promise.resolve();
      const next = previous.then(async () => {
        const folder = path.join(dir, encodeName(name));
        await mkdir(folder, { recursive: true });
        const version = ((await versions(name)).at(-1) ?? 0) + 1;
        await writeFile(path.join(folder, `v${version}.json`), JSON.stringify({ mimeType }));
        await writeFile(path.join(folder, `v${version}.bin`), bytes, { flag: "wx" });
        return { name, version };
      });
      queues.set(
        name,
        next.catch(() => undefined),
      );
      return next;
    },
    async get(name, version) {
      const chosen = version ?? (await versions(name)).at(-1);
      if (chosen === undefined) return undefined;
      const folder = path.join(dir, encodeName(name));
      try {
        const bytes = await readFile(path.join(folder, `v${chosen}.bin`));
        const meta: unknown = JSON.parse(await readFile(path.join(folder, `v${chosen}.json`), "utf8"));
        const mimeType =
          typeof meta === "object" && meta !== null && "mimeType" in meta && typeof meta.mimeType === "string"
            ? meta.mimeType
            : "application/octet-stream";
        return { name, version: chosen, bytes, mimeType };
      } catch {
        return undefined;
      }
    },
  };
}
