/** Plain-text tables and timing helpers shared by the runtime benchmarks. */

export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  const rule = '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

export function fmt(n: number | null, digits = 3): string {
  if (n === null || !Number.isFinite(n)) return '—';
  if (n >= 100) return n.toFixed(0);
  if (n >= 10) return n.toFixed(1);
  return n.toPrecision(digits);
}

/**
 * Run `step` repeatedly after a warm-up until `minMs` of measured time or
 * `maxRuns` runs; returns the mean milliseconds per run. `clock` reads the
 * time in ms (wall time unless given: `cpuMs` for the process's CPU time).
 */
export function timePerRun(
  step: () => void,
  options: { warmup: number; minMs: number; maxRuns: number; clock?: () => number },
): number {
  const clock = options.clock ?? (() => performance.now());
  for (let i = 0; i < options.warmup; i++) step();
  let runs = 0;
  const start = clock();
  let elapsed = 0;
  do {
    step();
    runs++;
    elapsed = clock() - start;
  } while (elapsed < options.minMs && runs < options.maxRuns);
  return elapsed / runs;
}

/**
 * The process's CPU time so far in ms (user + system, every thread): on a
 * machine shared with other jobs, the time spent waiting for a core is not
 * counted, so runs minutes apart compare better than in wall time.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** mulberry32: a tiny seeded PRNG so every contender sees the same world. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
