/** Input longer than this is cut before distances are computed, so hostile input stays cheap. */
const MAX_COMPARED_LENGTH = 48;

/**
 * The `count` names of `known` closest to `input` by edit distance (case-insensitive), closest
 * first, ties in alphabetical order. Used to suggest SKUs and regions in "not found" answers.
 */
export function nearestNames(known: readonly string[], input: string, count = 3): string[] {
  const target = input.trim().toLowerCase().slice(0, MAX_COMPARED_LENGTH);
  return known
    .map((name) => ({ name, distance: editDistance(target, name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((scored) => scored.name);
}

/** Levenshtein distance over UTF-16 code units, two rows of memory. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
