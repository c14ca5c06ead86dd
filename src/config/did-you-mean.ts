/**
 * The known key a mistyped one was most likely meant to be (`lable` → `label`,
 * `branch-prefix` → `branch_prefix`), or undefined when none is close enough to suggest.
 */
export function didYouMean(unknown: string, known: readonly string[]): string | undefined {
  const normalised = normalise(unknown);
  const exact = known.find((k) => normalise(k) === normalised);
  if (exact) return exact;
  const limit = Math.max(1, Math.floor(normalised.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(normalised, normalise(key));
    if (distance <= limit && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

function normalise(key: string): string {
  return key.toLowerCase().replace(/-/g, '_');
}

/** Edit distance where swapping two neighbours (`lable`) is one edit, like a typo is. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
