/** The names of the built-in tool profiles (see `docs/profiles.md`). */

/** Names of the built-in profiles (see `docs/profiles.md`). */
export type ProfileName = "skillrt" | "claude" | "trpc" | "agentscope" | "omni" | "aworld";

/** Every built-in profile name, `skillrt` first. */
export const PROFILE_NAMES: readonly ProfileName[] = [
  "skillrt",
  "claude",
  "trpc",
  "agentscope",
  "omni",
  "aworld",
];
