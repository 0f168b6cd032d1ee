/**
 * A short tag of this machine (its host name), written beside a pid in crash leftovers: a pid is only
 * meaningful on the machine (and pid namespace) that made it, so a folder shared between hosts or
 * containers (a network home, a mounted /tmp) holds leftovers a process elsewhere must not judge.
 */
import { createHash } from "node:crypto";
import os from "node:os";

let tag: string | undefined;

/** 8 hex digits of the SHA-256 of `os.hostname()`. */
export function hostTag(): string {
  tag ??= createHash("sha256").update(os.hostname()).digest("hex").slice(0, 8);
  return tag;
}
