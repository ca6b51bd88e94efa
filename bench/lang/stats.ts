/**
 * From measurements to the numbers the issue asks for: per-benchmark
 * ratios Cantrip/peer, geometric means over the suite, and the targets.
 */

import type { EngineName } from './engine.js';
import type { Measurement } from './measure.js';

export type Peer = Exclude<EngineName, 'cantrip'>;
export const PEERS: readonly Peer[] = ['interpreter', 'quickjs', 'fengari', 'wasmoon', 'node'];

export function geometricMean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

/** Milliseconds by benchmark then engine (null: not run, failed or wrong). */
export type Table = ReadonlyMap<string, ReadonlyMap<EngineName, number | null>>;

export function toTable(measurements: readonly Measurement[]): Table {
  const table = new Map<string, Map<EngineName, number | null>>();
  for (const m of measurements) {
    let row = table.get(m.benchmark);
    if (row === undefined) table.set(m.benchmark, (row = new Map()));
    row.set(m.engine, m.medianMs);
  }
  return table;
}

/** Cantrip/peer on one benchmark; null unless both ran correctly. */
export function ratio(table: Table, benchmark: string, peer: Peer): number | null {
  const row = table.get(benchmark);
  const mine = row?.get('cantrip') ?? null;
  const theirs = row?.get(peer) ?? null;
  return mine !== null && theirs !== null ? mine / theirs : null;
}

/**
 * Geometric mean of Cantrip/peer over the benchmarks both completed. Equal to
 * the ratio of the two engines' geometric-mean times over those benchmarks.
 */
export function geomeanRatio(table: Table, peer: Peer): number | null {
  const ratios = [...table.keys()].map((b) => ratio(table, b, peer)).filter((r): r is number => r !== null);
  return geometricMean(ratios);
}

/** Geometric mean of an engine's times over the benchmarks it completed. */
export function geomeanMs(table: Table, engine: EngineName): number | null {
  const times = [...table.values()].map((row) => row.get(engine) ?? null).filter((t): t is number => t !== null);
  return geometricMean(times);
}

export interface TargetResult {
  readonly name: string;
  /** The measured geometric-mean figure the target is about. */
  readonly value: number | null;
  readonly goal: string;
  readonly pass: boolean | null;
}

/** The three targets, on the geometric mean over the suite. */
export function evaluateTargets(table: Table): TargetResult[] {
  const quickjs = geomeanRatio(table, 'quickjs');
  const fengari = geomeanRatio(table, 'fengari');
  const wasmoon = geomeanRatio(table, 'wasmoon');
  const fengariOverCantrip = fengari === null ? null : 1 / fengari;
  const perProgram = [...table.keys()].map((name) => ratio(table, name, 'wasmoon')).filter((r): r is number => r !== null);
  const worstWasmoon = perProgram.length === 0 ? null : Math.max(...perProgram);
  return [
    { name: 'Cantrip/QuickJS', value: quickjs, goal: '≤ 1', pass: quickjs === null ? null : quickjs <= 1 },
    {
      name: 'fengari/Cantrip',
      value: fengariOverCantrip,
      goal: '≥ 5',
      pass: fengariOverCantrip === null ? null : fengariOverCantrip >= 5,
    },
    { name: 'Cantrip/wasmoon', value: wasmoon, goal: '≤ 1', pass: wasmoon === null ? null : wasmoon <= 1 },
    { name: 'Cantrip/wasmoon, the slowest program', value: worstWasmoon, goal: '≤ 1', pass: worstWasmoon === null ? null : worstWasmoon <= 1 },
  ];
}
