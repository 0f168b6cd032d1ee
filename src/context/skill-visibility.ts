/**
 * Which skills the model may see: not `disable-model-invocation`, matching `allow` (when given) and not
 * matching `deny`. A hidden skill behaves exactly like a missing one in every model-facing operation.
 */
import picomatch from "picomatch";
import type { SkillRecord } from "../catalog/types.js";

/** Visibility predicates of one session. */
export interface SkillVisibility {
  /** Visible to the model (catalog, tools, search). */
  forModel(record: SkillRecord): boolean;
  /** Allowed by the filters, ignoring `disable-model-invocation` (slash commands and `user` loads). */
  forUser(record: SkillRecord): boolean;
}

/** Compiles `allow` / `deny` name globs once. With neither, every skill passes the filters. */
export function createSkillVisibility(options: {
  allow?: string[] | undefined;
  deny?: string[] | undefined;
}): SkillVisibility {
  const allow = options.allow !== undefined ? picomatch(options.allow) : undefined;
  const deny = options.deny !== undefined && options.deny.length > 0 ? picomatch(options.deny) : undefined;
  const filtered = (r: SkillRecord): boolean =>
    (allow === undefined || allow(r.name)) && (deny === undefined || !deny(r.name));
  return {
    forModel: (r) => !r.disableModelInvocation && filtered(r),
    forUser: filtered,
  };
}
