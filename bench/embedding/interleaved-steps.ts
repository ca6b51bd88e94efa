/**
 * Two worlds timed against each other in one process, in rounds of steps
 * whose order alternates, so the load of a shared machine falls on both
 * alike (bench/embedding/world-ratio.ts, and the embedding suite's
 * waiting-casts row). Times are the process's CPU time (user + system).
 */

import { median } from '../lang/measure.js';
import { cpuMs } from '../spatial/table.js';
import { cantripWorld, cantripWorldWithWaitingCasts, LINGER_PERIOD_STEPS, type TickContender } from './world-tick.js';

/** CPU ms per step over `steps` steps. */
function timeSteps(c: TickContender, steps: number): number {
  const start = cpuMs();
  for (let i = 0; i < steps; i++) c.step();
  return (cpuMs() - start) / steps;
}

/** Steps until V8 has settled (at least 3, up to 500 or 1.5 s), then on to a whole number of `cycle`s of steps. */
export function warm(c: TickContender, cycle = 1): void {
  const start = performance.now();
  let i = 0;
  for (; i < 500 && (i < 3 || performance.now() - start < 1500); i++) c.step();
  for (; i % cycle !== 0; i++) c.step();
}

/** Median CPU ms per step of `a` and of `b` over `rounds` interleaved rounds of `steps` steps each. */
export function interleaved(a: TickContender, b: TickContender, steps: number, rounds: number): [number, number] {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      ta.push(timeSteps(a, steps));
      tb.push(timeSteps(b, steps));
    } else {
      tb.push(timeSteps(b, steps));
      ta.push(timeSteps(a, steps));
    }
  }
  return [median(ta), median(tb)];
}

/**
 * Issue 34's world: CPU ms per step of cantripWorld(n) with a cast waiting on every entity, and
 * without, over whole 20-step cycles of the waiting casts (their wake step counted once per cycle).
 */
export function waitingCastsSteps(n: number, rounds: number): { readonly withMs: number; readonly withoutMs: number } {
  const waiting = cantripWorldWithWaitingCasts(n);
  const plain = cantripWorld(n);
  warm(waiting, LINGER_PERIOD_STEPS);
  warm(plain, LINGER_PERIOD_STEPS);
  const cycles = Math.max(1, Math.round(200_000 / n / LINGER_PERIOD_STEPS));
  const [withMs, withoutMs] = interleaved(waiting, plain, cycles * LINGER_PERIOD_STEPS, rounds);
  return { withMs, withoutMs };
}
