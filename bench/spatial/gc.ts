/**
 * A garbage-collect function for heap measurements: global.gc when node runs
 * with --expose-gc, otherwise the flag is switched on at run time (V8 allows
 * it) and gc is fetched from a fresh context. Null when neither works.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function getGc(): (() => void) | null {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/** Heap in use after a full collection (when gc is available). */
export function settledHeap(gc: (() => void) | null): number {
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}
