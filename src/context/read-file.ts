/**
 * `readFile`: one file of a visible skill (a line range of a text file, or a binary's metadata) enters the
 * context as a read, cut to the per-item budget; missing and refused paths are answered for the model.
 */
import type { ReadFileResult } from "../catalog/types.js";
import { buildReadItem } from "./build-items.js";
import { enforceBudget } from "./enforce-budget.js";
import { readFileCaseFallback } from "./read-with-case-fallback.js";
import { errorText, isFailure, notFoundFailure, resolveSkill, type SessionCore } from "./session-core.js";
import type { ReadResult } from "./session-results.js";
import { newItemId, readKey, recordCall, removeItem, touch } from "./session-state.js";

/** Options of {@link SkillSession.readFile}. */
export interface ReadOptions {
  startLine?: number;
  endLine?: number;
  /** Refuse unless the skill is loaded (OmniEmployee's references). Default false. */
  requireLoaded?: boolean;
  toolCallId?: string;
}

/** Reads one file of a visible skill (see {@link SkillSession.readFile}). */
export async function readFile(
  core: SessionCore,
  name: string,
  path: string,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const record = resolveSkill(core, name);
  if (isFailure(record)) return record;
  const { state } = core;
  const names = core.profile.toolNames;
  if (options.requireLoaded === true && !state.skills.has(record.name)) {
    return {
      ok: false,
      code: "not-loaded",
      message: `Skill '${record.name}' is not loaded. Load the skill first using ${names.load}.`,
    };
  }
  const range = {
    ...(options.startLine !== undefined ? { startLine: options.startLine } : {}),
    ...(options.endLine !== undefined ? { endLine: options.endLine } : {}),
  };
  let result: ReadFileResult & { candidates?: string[] };
  try {
    // `REFERENCE.md` finds `reference.md` when that is the only path differing just in case.
    result = await readFileCaseFallback(core.catalog, record.name, path, range);
  } catch (error) {
    return {
      ok: false,
      code: "read-failed",
      message: `File '${path}' of skill '${record.name}' could not be read: ${errorText(error)}.`,
    };
  }
  switch (result.kind) {
    case "unknown-skill":
      return notFoundFailure(core, name);
    case "not-found":
      return {
        ok: false,
        code: "file-not-found",
        message:
          result.candidates !== undefined
            ? `File '${path}' not found in skill '${record.name}'; these paths differ from it only in letter case: ${result.candidates.join(", ")}. Read one of them by its exact path.`
            : `File '${path}' not found in skill '${record.name}'. Available paths:\n${result.available.map((p, i) => `${i + 1}. ${p}`).join("\n")}`,
        available: result.available,
      };
    case "refused":
      return {
        ok: false,
        code: "path-refused",
        message: refusedMessage(path, result.reason),
      };
    default:
      break;
  }
  // Counted before the state changes: counting a long file yields the event loop.
  const { item, nextLine } = await buildReadItem(core, record.name, result, range, newItemId(state));
  const key = readKey(record.name, result.path, options.startLine, options.endLine);
  const previous = state.reads.get(key);
  if (previous !== undefined) removeItem(state, previous);
  state.reads.set(key, item);
  state.live.set(item.id, item);
  touch(state, record.name, [item]);
  recordCall(state, options.toolCallId, [item]);
  const protect = new Set([item.id]);
  const loaded = state.skills.get(record.name);
  if (loaded !== undefined) protect.add(loaded.item.id);
  const budget = enforceBudget(core, protect);
  core.emit({ type: "file-read", name: record.name, path: result.path, tokens: item.tokens });
  return {
    ok: true,
    name: record.name,
    path: result.path,
    kind: result.kind,
    content: item.text,
    tokens: item.tokens,
    ...(nextLine !== undefined ? { nextLine } : {}),
    evicted: budget.evicted,
    notice: budget.notice,
  };
}

/**
 * "Path 'x' was refused." with the catalog's reason (already a sentence, possibly with advice), plus what to
 * do next when the reason does not say it.
 */
export function refusedMessage(path: string, reason: string): string {
  const trimmed = reason.trim();
  const sentence = /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
  const advised = /\b(Use|Ask for|Read one)\b/.test(sentence);
  const advice = advised ? "" : " Use a path relative to the skill directory, such as SKILL.md.";
  return `Path '${path}' was refused. ${sentence}${advice}`;
}
