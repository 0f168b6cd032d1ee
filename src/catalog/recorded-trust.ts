/**
 * The {@link SkillTrust} of the user's trust file: a root that needs trust (project scope, remote) is
 * trusted when the file records its origin with the digest its content has now. Digests are computed when
 * the trust is opened, for the recorded roots only; a root trusted through `ask` is recorded with the
 * digest it had when the question was put. Either digest is the root's {@link TrustPin}: every run of one
 * of its skills stages a copy, digests it again and runs only a copy that matches, so a change made after
 * the trust was opened never runs as trusted. Each `isTrusted` also compares the root's {@link rootPrint}
 * with the one taken before its digest, so a change made since makes its `allowed-tools` pre-approve
 * nothing and its `` !`cmd` `` not run, in this process too.
 */
import path from "node:path";
import { isTrusted, trustRecordOf } from "./is-trusted.js";
import { digestRoot, rootPrint } from "./root-digest.js";
import type { SkillTrust, TrustPin } from "./skill-trust.js";
import { readTrustFile, recordTrust } from "./trust-file.js";
import type { TrustOrigin } from "./trust-record.js";
import type { SkillRecord, SkillRoot } from "./types.js";

/** A root whose skills need trust. */
export interface UntrustedRoot {
  /** The folder scanned (absolute; a remote root's cached copy). */
  path: string;
  /** What trust is recorded for: `fs` + the folder, or `remote` + the URL or archive as given. */
  origin: TrustOrigin;
  /** How to name it to a person and in `skillrt trust …` (the folder, or the URL). */
  display: string;
}

/** Options of {@link openRecordedTrust}. */
export interface RecordedTrustOptions {
  /** The roots that need trust (others are trusted). */
  roots: readonly UntrustedRoot[];
  /** Directory of the trust file (`defaultStateDir`); undefined: nothing is recorded, nothing read. */
  stateDir: string | undefined;
  /** Roots (folders or URLs, as displayed) trusted for this run without a record (`config.trust`). */
  trusted?: readonly string[];
  /**
   * The MCP servers whose served skills need trust, each with the digest of its entry in the config
   * (`mcpServerDigest`): a server is trusted when the trust file records `mcp` + its name at that digest,
   * or `trusted` names it as `mcp:<name>`.
   */
  servers?: readonly { name: string; digest: string }[];
  /**
   * Asks a person whether to trust an untrusted root, once per root (a `yes` is recorded in the trust
   * file). Default: never asks.
   */
  ask?: (root: UntrustedRoot) => Promise<boolean>;
  /**
   * Told when a root's digest cannot be computed (it is too large or unreadable), or the trust file is
   * corrupt: the root (every root) stays untrusted, and the message says why and what to do. Default: not
   * told.
   */
  warn?: (message: string) => void;
}

/** A {@link SkillTrust} that also says which roots are untrusted now. */
export interface RecordedTrust extends SkillTrust {
  /** The roots needing trust that are not trusted now. */
  untrusted(): UntrustedRoot[];
}

/** Opens the trust of `options.roots` as the trust file records it. */
export async function openRecordedTrust(options: RecordedTrustOptions): Promise<RecordedTrust> {
  // A corrupt trust file trusts nothing, and says so (a `yes` to `ask` then refuses to write over it).
  const file = options.stateDir === undefined ? { records: [] } : readTrustFile(options.stateDir);
  if (file.problem !== undefined) options.warn?.(file.problem);
  const { records } = file;
  const byPath = new Map(options.roots.map((root) => [path.resolve(root.path), root]));
  const trusted = new Set<string>();
  /** The digest each root is trusted with (roots trusted by name have none). */
  const pins = new Map<string, string>();
  /** Each pinned root's {@link rootPrint}, taken before its digest: equal now means not changed since. */
  const prints = new Map<string, string>();
  const given = new Set(options.trusted ?? []);
  const digestOf = async (root: UntrustedRoot): Promise<{ digest: string; print: string } | undefined> => {
    try {
      // The print first: a change made while the digest is computed then shows as a changed print.
      const print = rootPrint(root.path);
      return { print, digest: await digestRoot(root.path) };
    } catch (error) {
      options.warn?.(`${root.display} is not trusted: ${(error as Error).message}`);
      return undefined;
    }
  };
  await Promise.all(
    options.roots.map(async (root) => {
      if (given.has(root.display) || given.has(root.path)) {
        trusted.add(root.path);
        return;
      }
      if (!records.some((r) => r.origin.kind === root.origin.kind && r.origin.id === root.origin.id)) return;
      const seen = await digestOf(root);
      if (seen !== undefined && isTrusted(root.origin, seen.digest, records)) {
        trusted.add(root.path);
        pins.set(root.path, seen.digest);
        prints.set(root.path, seen.print);
      } else if (seen !== undefined)
        // Trust lapses on any change, the user's own edits too: said, so it never lapses silently.
        options.warn?.(
          `${root.display} changed since you trusted it: its scripts, allowed-tools and !\`cmd\` stay off until you review it and run skillrt trust ${root.display} again (skillrt trust --list shows what changed).`,
        );
    }),
  );
  const trustedServers = new Set<string>();
  for (const server of options.servers ?? []) {
    const origin = { kind: "mcp", id: server.name };
    if (given.has(`mcp:${server.name}`) || isTrusted(origin, server.digest, records))
      trustedServers.add(server.name);
    else if (trustRecordOf(origin, records) !== undefined)
      options.warn?.(
        `the entry of MCP server '${server.name}' changed since you trusted it: its skills' allowed-tools and !\`cmd\` stay off until you run skillrt trust mcp:${server.name} again.`,
      );
  }
  const asked = new Map<string, Promise<boolean>>();
  const rootOf = (record: SkillRecord): UntrustedRoot | undefined => byPath.get(path.resolve(record.source));
  /**
   * Whether `root`, trusted by its digest, still holds what was digested (its print is unchanged). A
   * changed root is untrusted from then on in this process (said once), until trusted again.
   */
  const unchanged = (root: UntrustedRoot): boolean => {
    const print = prints.get(root.path);
    if (print === undefined) return true;
    let now: string | undefined;
    try {
      now = rootPrint(root.path);
    } catch {
      now = undefined;
    }
    if (now === print) return true;
    trusted.delete(root.path);
    prints.delete(root.path);
    asked.delete(root.path);
    options.warn?.(
      `${root.display} changed since its trust was checked: its skills are untrusted until trusted again (skillrt trust ${root.display}).`,
    );
    return false;
  };
  const trust: RecordedTrust = {
    isTrusted(record) {
      // A served skill is as trusted as its server (its runs are approved per skill besides).
      if (record.scope === "mcp") return trustedServers.has(record.origin.id);
      const root = rootOf(record);
      return root === undefined || (trusted.has(root.path) && unchanged(root));
    },
    howToTrust(record) {
      if (record.scope === "mcp") return `skillrt trust mcp:${record.origin.id}`;
      return `skillrt trust ${rootOf(record)?.display ?? record.source}`;
    },
    // Not checked against the print: a root that changed after `isTrusted` said yes keeps its pin, so
    // its run is still checked against the digest (and refused), never staged as it is.
    pinOf(record): TrustPin | undefined {
      const root = rootOf(record);
      const digest = root === undefined ? undefined : pins.get(root.path);
      if (root === undefined || digest === undefined) return undefined;
      return { root: root.path, digest, howToTrust: `skillrt trust ${root.display}` };
    },
    untrusted: () => options.roots.filter((root) => !trusted.has(root.path)),
  };
  const ask = options.ask;
  if (ask !== undefined) {
    trust.ask = (record) => {
      // A server is trusted with `skillrt trust mcp:<name>`, not from the middle of a conversation.
      if (record.scope === "mcp") return Promise.resolve(trustedServers.has(record.origin.id));
      const root = rootOf(record);
      if (root === undefined || trusted.has(root.path)) return Promise.resolve(true);
      let answer = asked.get(root.path);
      if (answer === undefined) {
        answer = (async () => {
          // The content as it is when the question is put is what the yes trusts: a change made while
          // the person reads the question does not run (the pin is this digest).
          const seen = await digestOf(root);
          if (seen === undefined || !(await ask(root))) return false;
          trusted.add(root.path);
          pins.set(root.path, seen.digest);
          prints.set(root.path, seen.print);
          if (options.stateDir !== undefined) recordTrust(options.stateDir, root.origin, seen.digest);
          return true;
        })();
        asked.set(root.path, answer);
      }
      return answer;
    };
  }
  return trust;
}

/**
 * The roots of `roots` whose skills need trust: project-scope roots, and remote roots (`origins`: their
 * cached folder → where they came from), recorded by their URL.
 */
export function untrustedRootsOf(
  roots: readonly SkillRoot[],
  origins: ReadonlyMap<string, { source: string }> = new Map(),
): UntrustedRoot[] {
  const out: UntrustedRoot[] = [];
  for (const root of roots) {
    const remote = origins.get(root.path) ?? origins.get(path.resolve(root.path));
    if (remote !== undefined)
      out.push({ path: root.path, origin: { kind: "remote", id: remote.source }, display: remote.source });
    else if (root.scope === "project")
      out.push({ path: root.path, origin: { kind: "fs", id: path.resolve(root.path) }, display: root.path });
  }
  return out;
}
