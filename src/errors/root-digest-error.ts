import { SkillrtError } from "./skillrt-error.js";

/** Why a root's digest could not be computed. */
export type RootDigestFailure = "unreadable" | "entries" | "bytes";

/**
 * Thrown by `digestRoot` when a root cannot be digested: it is not a readable folder, or it holds more
 * than `MAX_DIGEST_ENTRIES` entries or `MAX_DIGEST_BYTES` bytes. Such a root cannot be trusted by its
 * content; the message says what to do instead.
 */
export class RootDigestError extends SkillrtError {
  readonly root: string;
  readonly reason: RootDigestFailure;

  constructor({
    root,
    reason,
    detail,
    limit,
  }: { root: string; reason: RootDigestFailure; detail?: string; limit?: number }) {
    super({ code: "root-digest-failed", message: messageOf(root, reason, detail, limit ?? 0) });
    this.name = "RootDigestError";
    this.root = root;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is RootDigestError {
    return SkillrtError.isInstance(error) && error.code === "root-digest-failed";
  }
}

function messageOf(
  root: string,
  reason: RootDigestFailure,
  detail: string | undefined,
  limit: number,
): string {
  if (reason === "unreadable") return `${root} cannot be read${detail === undefined ? "" : `: ${detail}`}`;
  const cap =
    reason === "entries"
      ? `more than ${limit.toLocaleString("en-US")} files and folders`
      : `more than ${Math.round(limit / 1024 / 1024)} MiB`;
  return (
    `${root} holds ${cap}, past what a trust digest covers (every file a run can see, node_modules/ ` +
    "included). Remove what the skills do not need (bundle a script's dependencies instead of shipping " +
    "node_modules/), or trust the root by name without a digest in ~/.skillrt/config.json " +
    '("trust": ["<root>"]) or for one run with --trust'
  );
}
