/**
 * What the MCP server serves, looked up instead of scanned: the served skills sorted by skill path, a
 * map from path to skill, each skill's files (listed once, on first use) and its nested skills. Built
 * once per catalog state; the server drops it when a watched catalog changes.
 *
 * A skill's path is its name (`skill://pdf/SKILL.md`; a plugin's `plugin:skill` is `plugin/skill`), or, for a skill nested in another served skill's
 * directory whose folder is named as the skill, the enclosing skill's path and the folders between
 * (`skill://toolkit/extras/pdf/SKILL.md`), so the final segment is always the skill's name (SEP-2640).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { fileIdentity } from "../catalog/file-identity.js";
import type { SkillFile, SkillRecord } from "../catalog/types.js";
import type { SkillSession } from "../context/skill-session.js";
import type { Digested, FileDigests } from "./file-digests.js";
import { sha256Digest } from "./file-digests.js";

/** Largest file served (read whole, hashed and sent in one message). */
export const MAX_SERVED_FILE_BYTES = 8 * 1024 * 1024;

/** One served skill. */
export interface ServedSkill {
  record: SkillRecord;
  /** `/`-separated skill path; its last segment is `record.name`. */
  path: string;
  /** Served skills whose directories lie directly inside this one's (no served skill between). */
  nested: ServedSkill[];
}

/** One file of a skill as served: `path` in URIs (`SKILL.md` whatever its case on disk). */
export interface ServedFile {
  path: string;
  size: number;
  mimeType: string;
  binary: boolean;
  /** The skill whose own file it is (a nested skill's file is its own, and a supporting file of its encloser). */
  owner: SkillRecord;
  /** Path inside `owner`'s directory, as on disk. */
  disk: string;
}

/** A file's bytes as read for `resources/read`, with the digest of exactly those bytes. */
export interface ReadFile {
  bytes: Uint8Array;
  digest: string;
}

/** See the module comment. */
export interface ServedSkillIndex {
  /** Served skills sorted by path. */
  readonly skills: readonly ServedSkill[];
  /** The skill at exactly `skillPath`. */
  get(skillPath: string): ServedSkill | undefined;
  /** The skill whose path is the longest prefix of `segments`, and the segments after it. */
  resolve(segments: readonly string[]): { skill: ServedSkill; rest: string[] } | undefined;
  /** The skill's own files (not its nested skills'), SKILL.md first. */
  ownFiles(skill: ServedSkill): Promise<ServedFile[]>;
  /** Every file of the skill: its own, then its nested skills' under their folders. */
  allFiles(skill: ServedSkill): Promise<ServedFile[]>;
  /** The file at `filePath` among {@link allFiles}, or undefined. */
  file(skill: ServedSkill, filePath: string): Promise<ServedFile | undefined>;
  /** Reads a served file, confined to its skill's real directory. Throws with the reason when it cannot. */
  read(file: ServedFile): Promise<ReadFile>;
  /** Served top-level skill names closest to `name` (for error messages). */
  closest(name: string): string[];
  /** Why the catalog refuses to read `filePath` of the skill (a link leaving it, …), if it does. */
  refusal(skill: ServedSkill, filePath: string): Promise<string | undefined>;
  /** The digest of a served file and the byte length it covers (cached by file identity). */
  digest(file: ServedFile): Promise<Digested>;
}

/**
 * Skills whose files are served: those the model may see plus those offered as prompts (a skill with
 * `disable-model-invocation: true` is still the user's), without the ones `allow`/`deny` hide.
 */
export function servedRecords(session: SkillSession): SkillRecord[] {
  const byName = new Map<string, SkillRecord>();
  for (const r of [...session.visibleSkills(), ...session.userInvocableSkills()]) byName.set(r.name, r);
  return [...byName.values()];
}

/** Builds the index of `session`'s served skills; file lists and digests are read on first use. */
export function createServedSkillIndex(
  session: SkillSession,
  digests: FileDigests,
  fileLists: Map<string, Promise<ServedFile[]>> = new Map(),
): ServedSkillIndex {
  const catalog = session.catalog;
  const records = servedRecords(session);
  // Parents before children: a directory sorts before everything inside it.
  const byDir = new Map<string, ServedSkill>();
  const tops: ServedSkill[] = [];
  const all: ServedSkill[] = [];
  for (const record of [...records].sort((a, b) => compare(a.dir, b.dir))) {
    // A plugin skill served as `plugin:skill` is `skill://plugin/skill/…`: a URI's authority cannot hold
    // the colon, and the last segment stays the skill's own name.
    const skill: ServedSkill = { record, path: record.name.replace(":", "/"), nested: [] };
    const parent = record.dir.startsWith("memory:") ? undefined : enclosing(byDir, record.dir);
    if (parent !== undefined) {
      parent.nested.push(skill);
      const rel = path.relative(parent.record.dir, record.dir).split(path.sep).join("/");
      if (path.basename(record.dir) === record.name) skill.path = `${parent.path}/${rel}`;
    } else {
      tops.push(skill);
    }
    byDir.set(record.dir, skill);
    all.push(skill);
  }
  const byPath = new Map<string, ServedSkill>();
  for (const skill of all) if (!byPath.has(skill.path)) byPath.set(skill.path, skill);
  const skills = [...byPath.values()].sort((a, b) => compare(a.path, b.path));

  const everything = new Map<ServedSkill, Promise<ServedFile[]>>();
  const ownFiles = (skill: ServedSkill): Promise<ServedFile[]> => {
    // Kept by skill directory for every session; cleared when a watched catalog changes.
    const key = `${skill.record.location}\0${skill.record.name}`;
    let files = fileLists.get(key);
    if (files === undefined) {
      files = listOwn(skill.record);
      fileLists.set(key, files);
      // A failed listing (skill removed meanwhile) is tried again next time.
      files.catch(() => fileLists.delete(key));
    }
    return files;
  };
  const listOwn = async (record: SkillRecord): Promise<ServedFile[]> => {
    const files = await catalog.files(record.name);
    const skillFile = path.posix.basename(record.location.replaceAll("\\", "/"));
    const memory = record.dir.startsWith("memory:");
    return files
      .filter((f) => !(memory && f.binary))
      .map((f: SkillFile) => ({
        path: f.path === skillFile ? "SKILL.md" : f.path,
        size: f.size,
        mimeType: f.mimeType,
        binary: f.binary,
        owner: record,
        disk: f.path,
      }));
  };
  const allFiles = (skill: ServedSkill): Promise<ServedFile[]> => {
    let files = everything.get(skill);
    if (files === undefined) {
      files = (async () => {
        const list = [...(await ownFiles(skill))];
        for (const child of skill.nested) {
          const rel = path.relative(skill.record.dir, child.record.dir).split(path.sep).join("/");
          for (const f of await allFiles(child)) list.push({ ...f, path: `${rel}/${f.path}` });
        }
        return list;
      })();
      everything.set(skill, files);
      files.catch(() => everything.delete(skill));
    }
    return files;
  };

  const read = async (file: ServedFile): Promise<ReadFile> => {
    const record = file.owner;
    if (record.dir.startsWith("memory:")) {
      const result = await catalog.readFile(record.name, file.disk);
      if (result.kind !== "text") throw new Error(`'${file.path}' cannot be read (${result.kind})`);
      const bytes = Buffer.from(result.content, "utf8");
      return { bytes, digest: sha256Digest(bytes) };
    }
    const listed = onDisk(record, file.disk);
    const real = await fs.realpath(listed);
    const inside =
      record.singleFile === true ? real === record.location : real.startsWith(`${record.dir}${path.sep}`);
    if (!inside) throw new Error("the file leaves the skill directory");
    const readAt = Date.now();
    const handle = await fs.open(real, "r");
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new Error("not a regular file");
      if (stat.size > MAX_SERVED_FILE_BYTES)
        throw new Error(`the file is ${stat.size} bytes, over the ${MAX_SERVED_FILE_BYTES}-byte limit`);
      const bytes = await handle.readFile();
      return { bytes, digest: digests.remember(listed, fileIdentity(stat), readAt, bytes).digest };
    } finally {
      await handle.close();
    }
  };

  return {
    skills,
    get: (skillPath) => byPath.get(skillPath),
    resolve(segments) {
      for (let n = segments.length; n >= 1; n--) {
        const skill = byPath.get(segments.slice(0, n).join("/"));
        if (skill !== undefined) return { skill, rest: segments.slice(n) };
      }
      return undefined;
    },
    ownFiles,
    allFiles,
    async file(skill, filePath) {
      return (await allFiles(skill)).find((f) => f.path === filePath);
    },
    read,
    closest: (name) => catalog.closest(name).filter((n) => byPath.has(n)),
    async refusal(skill, filePath) {
      const result = await catalog.readFile(skill.record.name, filePath).catch(() => undefined);
      return result?.kind === "refused" ? result.reason : undefined;
    },
    async digest(file) {
      if (file.owner.dir.startsWith("memory:")) {
        const { bytes, digest } = await read(file);
        return { digest, size: bytes.length };
      }
      // Links were confined when the file was listed; reads re-check (see read).
      return digests.digest(onDisk(file.owner, file.disk));
    },
  };
}

/** Where a listed file of `record` is on disk: below its folder, or, for a single-file skill, its one file. */
function onDisk(record: SkillRecord, disk: string): string {
  if (record.singleFile !== true) return path.join(record.dir, disk);
  if (disk !== "SKILL.md") throw new Error("a single-file skill has no other files");
  return record.location;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The nearest served skill whose directory holds `dir`. */
function enclosing(byDir: Map<string, ServedSkill>, dir: string): ServedSkill | undefined {
  for (let up = path.dirname(dir); up !== dir; dir = up, up = path.dirname(up)) {
    const found = byDir.get(up);
    if (found !== undefined) return found;
  }
  return undefined;
}
