/**
 * Names closest to `wanted`, best first, at most `limit` (default 3): exact case-insensitive matches,
 * then names sharing a prefix or containing one another, then by edit distance (Levenshtein) within
 * roughly a third of the longer name. Ties are broken by name.
 */
export function closestNames(wanted: string, names: Iterable<string>, limit = 3): string[] {
  const target = wanted.trim().toLowerCase();
  if (target === "") return [];
  const scored: { name: string; score: number }[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    let score: number;
    if (lower === target) score = 0;
    else if (lower.startsWith(target) || target.startsWith(lower)) score = 1;
    else if (lower.includes(target) || target.includes(lower)) score = 2;
    else {
      const distance = editDistance(lower, target);
      if (distance > Math.max(2, Math.ceil(Math.max(lower.length, target.length) / 3))) continue;
      score = 2 + distance;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, limit).map((s) => s.name);
}

/** Levenshtein distance (insert, delete, substitute each cost 1). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}
