/**
 * Trust of skills in a conversation. Skills of the user scope and of roots named on the command line or in
 * code are trusted; project-scope skills (a cloned repository's `skills/`, `.agents/skills`,
 * `.claude/skills`), remote roots and skills served by MCP servers are listed and readable, but until
 * trusted their scripts do not run, their `allowed-tools` pre-approve nothing and their `` !`cmd` `` is not
 * executed. (A served skill's commands run through `skill_run` only, each skill approved by the user.)
 */
import { originMay, type TrustAction, trustedByDefault } from "../trust/trust-action.js";
import type { SkillRecord } from "./types.js";

/** How trust of skills is decided. */
export interface SkillTrust {
  /** Whether `record`'s scripts may run, its `allowed-tools` pre-approve and its `` !`cmd` `` run, now. */
  isTrusted(record: SkillRecord): boolean;
  /** The command that trusts the skill's root (`skillrt trust /repo/.agents/skills`), for refusals. */
  howToTrust(record: SkillRecord): string;
  /**
   * Asked the first time an untrusted skill's root matters, where a person can answer (`chat`); resolves
   * whether it is trusted now. Without it, an untrusted skill is refused.
   */
  ask?(record: SkillRecord): Promise<boolean>;
  /**
   * The content `record`'s runs must match, when its trust is bound to a digest (a root the user trusted
   * with `skillrt trust` or in `chat`); `undefined` when trust is not bound to content (`--trust`, a root
   * trusted by name, the user's own roots). A run of a pinned skill stages a private copy of the skill,
   * digests that copy and runs it only when it matches.
   */
  pinOf?(record: SkillRecord): TrustPin | undefined;
}

/** The content a skill's runs must match: the root the user trusted and its digest then. */
export interface TrustPin {
  /** The root folder the digest covers (as scanned; a remote root's cached copy). */
  root: string;
  /** `sha256:…` of the root as the user trusted it (`digestRoot`). */
  digest: string;
  /** The command that trusts the root again, for the refusal of a changed root. */
  howToTrust: string;
}

/**
 * `createSkillAgent({ trust })`: `true` trusts every skill (scripts and CI that vetted their roots),
 * `false` or unset applies the default rule ({@link needsTrustByDefault}: project-scope skills are
 * untrusted), or a {@link SkillTrust} of your own (`skillrt` passes one built from the user's trust file).
 */
export type TrustOption = boolean | SkillTrust;

/**
 * Whether a skill needs the user's trust under the default rule: it was found under a project root, or an
 * MCP server serves it.
 */
export function needsTrustByDefault(record: Pick<SkillRecord, "scope">): boolean {
  return !trustedByDefault(record.scope);
}

const TRUST_ALL: SkillTrust = {
  isTrusted: () => true,
  howToTrust: (record) => `skillrt trust ${record.source}`,
};

const DEFAULT_TRUST: SkillTrust = {
  isTrusted: (record) => !needsTrustByDefault(record),
  // A served skill's source is `mcp:<server>`, which is also what `skillrt trust` takes.
  howToTrust: (record) => `skillrt trust ${record.source}`,
};

/** The {@link SkillTrust} an option stands for. */
export function skillTrust(option: TrustOption | undefined): SkillTrust {
  if (option === true) return TRUST_ALL;
  if (option === undefined || option === false) return DEFAULT_TRUST;
  return option;
}

/**
 * Whether `record`'s content may take `action` (run its scripts, pre-render, pre-approve tools) as the
 * trust policy decides for its trust state now, asking once when `trust` can ask.
 */
export async function ensureTrusted(
  trust: SkillTrust,
  record: SkillRecord,
  action: TrustAction,
): Promise<boolean> {
  if (originMay(trust.isTrusted(record), action)) return true;
  return trust.ask === undefined ? false : originMay(await trust.ask(record), action);
}

/** {@link ensureTrusted} without asking: whether `record` may take `action` now. */
export function mayNow(trust: SkillTrust, record: SkillRecord, action: TrustAction): boolean {
  return originMay(trust.isTrusted(record), action);
}

/**
 * The refusal the model reads for `what` (`"Scripts"`, `` "Its !`cmd` lines" ``) of an untrusted skill:
 * that nothing ran, that the instructions stay readable, and the command the user runs to trust it.
 */
export function untrustedMessage(trust: SkillTrust, record: SkillRecord, what: string): string {
  return (
    `${what} of skill '${record.name}' not run: the skill comes from ${record.source}, which the user has ` +
    `not trusted (project, remote and MCP-served skills are untrusted until trusted). Its instructions can still be ` +
    `read. Tell the user to review the skill and trust it with \`${trust.howToTrust(record)}\`, then try again.`
  );
}
