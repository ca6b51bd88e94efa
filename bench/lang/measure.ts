/**
 * Timing one benchmark on one engine: untimed warm-up runs, then timed runs
 * (the median is what we report). Every run's output is checked against the
 * expected checksum, so a fast wrong answer never counts.
 */

import type { Engine, EngineName } from './engine.js';

export interface RunPlan {
  /** Untimed runs first (JIT warm-up, caches, first-touch allocation). */
  readonly warmups: number;
  /** Timed runs: at least minRuns, at most maxRuns, stopping early once budgetMs of timed work is spent. */
  readonly minRuns: number;
  readonly maxRuns: number;
  readonly budgetMs: number;
}

export const DEFAULT_PLAN: RunPlan = { warmups: 1, minRuns: 3, maxRuns: 5, budgetMs: 5000 };
export const QUICK_PLAN: RunPlan = { warmups: 0, minRuns: 1, maxRuns: 1, budgetMs: 0 };

export interface Measurement {
  readonly engine: EngineName;
  readonly benchmark: string;
  /** Null when the engine failed or printed the wrong checksum. */
  readonly medianMs: number | null;
  /** The fastest run: less sensitive than the median to load from other processes. */
  readonly minMs: number | null;
  readonly samplesMs: readonly number[];
  readonly error: string | null;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function checkOutput(printed: readonly string[], expected: readonly string[]): string | null {
  if (printed.length === expected.length && printed.every((line, i) => line === expected[i])) return null;
  const show = (lines: readonly string[]): string => JSON.stringify(lines.slice(0, 6));
  return `wrong output: printed ${show(printed)}, expected ${show(expected)}`;
}

/** Runs once, timed; returns the milliseconds or throws with the reason the run does not count. */
function timedRun(engine: Engine, source: string, expected: readonly string[]): number {
  engine.collect();
  const start = performance.now();
  const printed = engine.run(source);
  const elapsed = performance.now() - start;
  const problem = checkOutput(printed, expected);
  if (problem !== null) throw new Error(problem);
  return elapsed;
}

interface Progress {
  readonly engine: Engine;
  readonly source: string;
  readonly samplesMs: number[];
  spentMs: number;
  error: string | null;
}

function wantsAnotherRun(p: Progress, plan: RunPlan): boolean {
  if (p.error !== null) return false;
  const n = p.samplesMs.length;
  return n < plan.minRuns || (n < plan.maxRuns && p.spentMs < plan.budgetMs);
}

function attempt(p: Progress, expected: readonly string[], record: boolean): void {
  try {
    const ms = timedRun(p.engine, p.source, expected);
    if (record) {
      p.samplesMs.push(ms);
      p.spentMs += ms;
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    p.error = message.split('\n')[0]!;
  }
}

/**
 * Measures one benchmark on several engines, round-robin: each round runs
 * every engine once, so a burst of load from elsewhere on the machine hits
 * all engines alike instead of skewing one engine's column.
 */
export function measureRoundRobin(
  engines: readonly { engine: Engine; source: string }[],
  benchmark: string,
  expected: readonly string[],
  plan: RunPlan,
): Measurement[] {
  const progress: Progress[] = engines.map((e) => ({ ...e, samplesMs: [], spentMs: 0, error: null }));
  for (let i = 0; i < plan.warmups; i++) for (const p of progress) if (p.error === null) attempt(p, expected, false);
  for (;;) {
    const pending = progress.filter((p) => wantsAnotherRun(p, plan));
    if (pending.length === 0) break;
    for (const p of pending) attempt(p, expected, true);
  }
  return progress.map((p) => ({
    engine: p.engine.name,
    benchmark,
    medianMs: p.error === null ? median(p.samplesMs) : null,
    minMs: p.error === null ? Math.min(...p.samplesMs) : null,
    samplesMs: p.samplesMs,
    error: p.error,
  }));
}
