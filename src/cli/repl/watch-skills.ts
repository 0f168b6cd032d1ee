/**
 * Follows the skill folders while `chat` or `ask` runs, so added, edited and removed skills reach the next
 * model request without `/reload`: the catalog's watcher re-scans on a change, and the session's frozen
 * catalog (history placement) is released so the next request renders the new one.
 */
import type { Catalog, CatalogChangeEvent } from "../../catalog/types.js";
import type { SkillSession } from "../../context/skill-session.js";

/**
 * One line saying what changed (`Skills changed: added a; edited b; removed c.`), with the number of
 * problems found (`skillrt validate` names them); empty when nothing did.
 */
export function describeSkillChanges(event: CatalogChangeEvent): string {
  const changes: Array<[string, string[]]> = [
    ["added", event.added],
    ["edited", event.changed],
    ["removed", event.removed],
  ];
  const parts = changes
    .filter(([, names]) => names.length > 0)
    .map(([verb, names]) => `${verb} ${names.join(", ")}`);
  if (parts.length === 0) return "";
  const problems = event.diagnostics.length;
  const note =
    problems === 0 ? "" : ` (${problems} problem${problems === 1 ? "" : "s"}: see skillrt validate)`;
  return `Skills changed: ${parts.join("; ")}.${note}`;
}

/**
 * Watches `catalog` until the returned function is called. On each change the current session's catalog
 * is refreshed (`session()`: the conversation may have been reset) and `onChange` gets the line of
 * {@link describeSkillChanges}.
 */
export function watchSkills(
  catalog: Catalog,
  session: () => SkillSession,
  onChange: (line: string) => void = () => {},
): () => void {
  return catalog.watch((event) => {
    session().renderer.refreshCatalog();
    const line = describeSkillChanges(event);
    if (line !== "") onChange(line);
  });
}
