import path from "node:path";
import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import { parseSkillMd } from "../spec/parse-skill-md.js";
import type { Diagnostic } from "../spec/types.js";
import { affectedSkillDirs } from "./affected-skills.js";
import type { BodyOpening } from "./body-opening.js";
import { loadCatalogCache, type RootCache, saveCatalogCache } from "./catalog-cache.js";
import { closestNames } from "./closest-names.js";
import { defaultRoots, normalizeRoots } from "./default-roots.js";
import { diffCatalogStates } from "./diff-catalog-states.js";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_DIRS, SINGLE_FILE_SUFFIX } from "./discover-skills.js";
import { errorCode } from "./fs-diagnostics.js";
import { listSkillFiles } from "./list-skill-files.js";
import { memorySkillFiles, readMemorySkillFile, renderMemorySkillMd } from "./memory-source.js";
import { readSkillFile } from "./read-skill-file.js";
import { MAX_SKILL_FILE_BYTES, readSkillFull } from "./read-skill-head.js";
import { reuseCachedScan } from "./reuse-cached-scan.js";
import {
  type CatalogState,
  rescanSkillFiles,
  type ScanInput,
  type ScannedSkill,
  scanCatalog,
} from "./scan-catalog.js";
import { readSearchCache, searchCacheKey, writeSearchCache } from "./search-cache.js";
import { SearchIndex } from "./search-index.js";
import { loadSearchIndex, serializeSearchIndex } from "./search-index-data.js";
import { bodyTexts, type SearchableRecords, searchableRecords } from "./search-texts.js";
import { readSingleFileSkill, singleFileSkillFiles } from "./single-file-skill.js";
import type {
  Catalog,
  CatalogChangeEvent,
  CatalogOptions,
  LoadedSkill,
  SkillFile,
  SkillRecord,
} from "./types.js";
import { updateSkillFiles } from "./update-skill-files.js";
import { type PathWatcher, type WatchChange, watchPaths } from "./watch-paths.js";
import {
  DEFAULT_MAX_WATCHES,
  DEFAULT_POLL_MS,
  watchFailed,
  watchPolling,
  watchTargets,
} from "./watch-targets.js";

/**
 * Builds a catalog: scans the roots once (explicit `roots`, else the project, user and `SKILLS_DIR`
 * roots) and adds the `memory` skills. Only L1 records are kept in memory (the head of each SKILL.md
 * is read); bodies (L2) and files (L3) are read on demand. Broken skills never fail the catalog: they
 * are left out of `list()` and reported by `diagnostics()`. The search index is built on the first
 * `search()`, in slices that yield to the event loop, and shared by every search until a re-scan. Defaults: `mode` lenient, `maxDepth` 6, `maxDirs` 2,000, memory skills rank last,
 * watch debounce 75 ms.
 *
 * Watching (`watch(listener)`) re-scans after changes under the roots and swaps the record set in one
 * step; unchanged SKILL.md files (same mtime and size) are not read again. An edit of a SKILL.md that
 * keeps its skill usable under the same name re-reads that file only and replaces its record in place. A skill edited into a broken
 * state leaves the list and its diagnostics appear: the previous good version is NOT kept, so what the
 * catalog serves is always what is on disk. On Linux every directory the scan listed is watched on its
 * own (inotify; cheaper than Node's per-file recursive emulation); elsewhere the roots are watched
 * recursively. Changes are debounced (`watchDebounceMs`, default 75 ms) and a re-scan blocks the event
 * loop for its duration (about as long as the first scan minus the SKILL.md reads).
 * `abortSignal` bounds the first scan only.
 */
export async function createCatalog(options: CatalogOptions = {}): Promise<Catalog> {
  const cwd = options.cwd ?? process.cwd();
  const roots =
    options.roots !== undefined
      ? normalizeRoots(options.roots, cwd)
      : defaultRoots({
          cwd,
          ...(options.home === undefined ? {} : { home: options.home }),
          ...(options.env === undefined ? {} : { env: options.env }),
        });
  const mode = options.mode ?? "lenient";
  const input: ScanInput = {
    roots,
    memory: options.memory ?? [],
    mode,
    memoryPrecedence: options.memoryPrecedence ?? "last",
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.maxDirs === undefined ? {} : { maxDirs: options.maxDirs }),
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
  };
  const cacheDir = options.cacheDir;
  const loaded = cacheDir === undefined ? undefined : loadCatalogCache(cacheDir, roots, mode);
  const limits = `${options.maxDepth ?? DEFAULT_MAX_DEPTH}/${options.maxDirs ?? DEFAULT_MAX_DIRS}`;
  // Warm start: when nothing changed (one stat per folder and skill file shows it), the cached state
  // is the state; else a scan that re-reads only what changed.
  const reused = loaded === undefined ? undefined : reuseCachedScan(input, loaded, limits);
  let state =
    reused ??
    (await scanCatalog(
      loaded === undefined
        ? input
        : { ...input, previous: loaded.previous, known: loaded.roots.map((root) => root?.known) },
    ));
  // A reused state is the cache's own: nothing to compare or write (at 10,000 skills the comparison alone
  // took ~40 ms of every warm start).
  let cached: (RootCache | undefined)[] =
    cacheDir === undefined
      ? []
      : reused !== undefined && loaded !== undefined
        ? loaded.roots
        : saveCatalogCache(cacheDir, roots, mode, state, loaded?.roots ?? [], limits);
  let saveTimer: NodeJS.Timeout | undefined;
  // The search index of a state: loaded from the cache when it was stored for the same records, else
  // built (and stored). The index reads the bodies' openings through `searchableRecords`: all of them
  // when it is built, only the few it re-ranks when it is loaded.
  const bodyTextsRead = new WeakMap<ScannedSkill, BodyOpening>();
  const openSearchIndex = async (
    current: CatalogState,
  ): Promise<{ index: SearchIndex; searchable: SearchableRecords }> => {
    const searchable = searchableRecords(current.records, (record) => {
      // Remembered per scanned version of the file: a re-scan that reuses it reuses its texts too.
      const scanned = current.scanned.get(record.dir);
      if (scanned?.record !== record) return bodyTexts(record.location);
      let texts = bodyTextsRead.get(scanned);
      if (texts === undefined) {
        texts = bodyTexts(record.location);
        bodyTextsRead.set(scanned, texts);
      }
      return texts;
    });
    // Wrapping the records and hashing them for the cache key are each one synchronous pass over the
    // catalog: the event loop runs between them (a server's first turn at 10k skills stalls on their sum).
    if (cacheDir !== undefined) await new Promise<void>((resolve) => setImmediate(resolve));
    const key = cacheDir === undefined ? undefined : searchCacheKey(current, mode);
    if (key !== undefined) await new Promise<void>((resolve) => setImmediate(resolve));
    if (cacheDir !== undefined && key !== undefined) {
      const loaded = loadSearchIndex(readSearchCache(cacheDir, roots, mode, key), searchable.records);
      if (loaded !== undefined) {
        await loaded.prepare();
        return { index: loaded, searchable };
      }
    }
    // Built in slices (the event loop keeps running), once for every caller, and stored for the next process.
    const built = await SearchIndex.build(searchable.records);
    if (cacheDir !== undefined && key !== undefined) {
      writeSearchCache(cacheDir, roots, mode, key, serializeSearchIndex(built));
    }
    return { index: built, searchable };
  };
  // After a re-scan the cache is written a little later, off the change event's path.
  const saveSoon = () => {
    if (cacheDir === undefined || saveTimer !== undefined) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      cached = saveCatalogCache(cacheDir, roots, mode, state, cached, limits);
    }, 1000);
    saveTimer.unref();
  };
  // The signal bounds creation only; later re-scans (refresh, watch) are not tied to it.
  delete input.abortSignal;
  let index: Promise<{ index: SearchIndex; searchable: SearchableRecords }> | undefined;
  let watchDiagnostics: Diagnostic[] = [];
  const listeners = new Set<(event: CatalogChangeEvent) => void>();
  let watcher: PathWatcher | undefined;
  let poller: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  /** Bumped by every re-scan (see `Catalog.revision`). */
  let revision = 0;

  // Changes seen since the last re-scan; "all" when something asked for a full one.
  let pending: WatchChange[] | "all" = [];
  const rescan = async (): Promise<void> => {
    const changes = pending;
    pending = [];
    // Edits of SKILL.md files in unchanged folders re-read just those files; anything else re-scans
    // everything (stat-only where folders and files are unchanged).
    const dirs = changes === "all" ? undefined : affectedSkillDirs(changes, state);
    // Usable skills edited under the same name are updated where they stand (cost: the files read).
    const updated = dirs === undefined ? false : updateSkillFiles(input, state, dirs);
    let event: CatalogChangeEvent | undefined;
    if (updated !== false) {
      event = updated;
    } else {
      const next =
        dirs !== undefined
          ? rescanSkillFiles(input, state, dirs)
          : await scanCatalog({ ...input, previous: state.scanned, known: state.listings });
      event = diffCatalogStates(state, next);
      state = next;
    }
    revision += 1;
    // A body edit can leave the record as it was but changes what search reads of the file.
    if (event !== undefined || dirs === undefined || dirs.size > 0) index = undefined;
    saveSoon();
    // A watcher started just now missed changes made during the scan: scan once more.
    if (dirs === undefined && watcher?.update(watchTargets(roots, state)) === true) {
      pending = "all";
      again = true;
    }
    if (event === undefined) return;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        // One failing listener must not starve the others; its error still surfaces as uncaught.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };

  const refresh = (changes?: WatchChange[]): Promise<void> => {
    if (changes === undefined || pending === "all") pending = "all";
    else pending.push(...changes);
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await rescan();
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  // A plugin skill served under its short name is found by its qualified name too (`plugin:skill`).
  const lookup = (name: string): SkillRecord | undefined => {
    const record = state.byName.get(name);
    if (record !== undefined || state.aliases.size === 0) return record;
    const short = state.aliases.get(name);
    return short === undefined ? undefined : state.byName.get(short);
  };
  // A short name only skills of several plugins claim offers their qualified names, not guesses.
  const closestTo = (name: string, limit?: number): string[] =>
    state.ambiguous.get(name) ?? closestNames(name, state.byName.keys(), limit);
  const notFound = (name: string): SkillNotFoundError =>
    new SkillNotFoundError({ name, closest: closestTo(name), ambiguous: state.ambiguous.has(name) });

  const mustGet = (name: string): SkillRecord => {
    const record = lookup(name);
    if (record === undefined) throw notFound(name);
    return record;
  };

  const files = async (name: string): Promise<SkillFile[]> => {
    const record = mustGet(name);
    const memory = state.memory.get(record.name);
    if (memory !== undefined) return memorySkillFiles(memory);
    if (record.singleFile === true) return singleFileSkillFiles(record);
    // A SKILL.md linked from elsewhere keeps its own name in the index.
    const fileName =
      path.dirname(record.location) === record.dir ? path.basename(record.location) : "SKILL.md";
    return listSkillFiles(record.dir, fileName);
  };

  return {
    list: () => [...state.records],
    get: lookup,
    revision: () => revision,
    diagnostics: () => [...state.diagnostics, ...watchDiagnostics],
    async load(name): Promise<LoadedSkill> {
      const record = mustGet(name);
      const memory = state.memory.get(record.name);
      if (memory !== undefined) {
        return { record, body: memory.body.trim(), bodyLine: renderMemorySkillMd(memory).bodyLine };
      }
      let text: string;
      try {
        // Bounded: a SKILL.md that grew past the limit since the scan is refused, never read whole.
        text = readSkillFull(record.location).bytes.toString("utf8");
      } catch (error) {
        if (errorCode(error) === "EFBIG") {
          throw new SkillrtError({
            code: "file-too-large",
            message: `${record.location} is over the ${MAX_SKILL_FILE_BYTES}-byte limit for a SKILL.md; it was not read. Move detail into references/.`,
          });
        }
        throw new SkillNotFoundError({ name, closest: [] });
      }
      const { skill } = parseSkillMd(text, {
        mode,
        dirName: path.basename(record.dir, record.singleFile === true ? SINGLE_FILE_SUFFIX : undefined),
        path: record.location,
      });
      return skill === undefined
        ? { record, body: text, bodyLine: 1 }
        : { record, body: skill.body, bodyLine: skill.bodyLine };
    },
    files,
    async readFile(name, requested, range) {
      const record = lookup(name);
      if (record === undefined) return { kind: "unknown-skill", name, closest: closestTo(name) };
      const memory = state.memory.get(record.name);
      if (memory !== undefined) return readMemorySkillFile(memory, requested, range);
      if (record.singleFile === true) return readSingleFileSkill(record, requested, range);
      return readSkillFile(record.dir, requested, range, async () =>
        (await files(record.name)).map((f) => f.path),
      );
    },
    async search(query, limit = 10) {
      let opening = index;
      if (opening === undefined) {
        opening = openSearchIndex(state);
        index = opening;
        // A failed build is not kept: the next search tries again.
        opening.catch(() => {
          if (index === opening) index = undefined;
        });
      }
      const { index: built, searchable } = await opening;
      return built.search(query, limit).map((hit) => searchable.hit(hit));
    },
    closest: (name, limit = 3) => closestTo(name, limit),
    refresh: () => refresh(),
    watch(listener) {
      listeners.add(listener);
      // A re-scan only fails when aborted; the watcher keeps the last good state then.
      const onChange = (changes: WatchChange[]) => void refresh(changes).catch(() => undefined);
      const poll = (why: string) => {
        if (poller !== undefined) return;
        watcher?.close();
        watcher = undefined;
        const every = options.watchPollMs ?? DEFAULT_POLL_MS;
        watchDiagnostics = [...watchDiagnostics, watchPolling(roots, why, every)];
        poller = setInterval(() => void refresh().catch(() => undefined), every);
      };
      const targets = watchTargets(roots, state);
      const maxWatches = options.maxWatches ?? DEFAULT_MAX_WATCHES;
      if (watcher === undefined && poller === undefined && targets.length > maxWatches) {
        poll(`watching its ${targets.length} folders would take more than ${maxWatches} watches`);
      }
      if (poller === undefined) {
        watcher ??= watchPaths(targets, onChange, {
          debounceMs: options.watchDebounceMs ?? 75,
          onError: (dir, error) => {
            const code = errorCode(error);
            // The system's limit on watches (or open files) is reached: poll instead, reported once.
            if (code === "ENOSPC" || code === "EMFILE")
              queueMicrotask(() => poll(`the system's watch limit was reached (${code})`));
            else watchDiagnostics = [...watchDiagnostics, watchFailed(dir, error)];
          },
        });
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          watcher?.close();
          watcher = undefined;
          if (poller !== undefined) clearInterval(poller);
          poller = undefined;
        }
      };
    },
  };
}
