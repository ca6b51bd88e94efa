/**
 * "Did you mean …?": the known name nearest a misspelt one. Read by the
 * entity-property check, the resolver's undefined-variable warning and the
 * language service's quick fixes.
 */

/** The known name closest to `name` by edit distance, if close enough to be a typo. */
export function nearestName(name: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  for (const candidate of known) {
    if (Math.abs(candidate.length - name.length) > bestDistance) continue;
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d <= bestDistance && (best === null || d < bestDistance || candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance with adjacent transpositions (`wsidom` is one step from `wisdom`). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}
