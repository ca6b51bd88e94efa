/**
 * Issue 20's world target on its own: Cantrip World.step (the `drift` tick
 * spell) against the same World stepped by plain JS through its public API,
 * in one process, rounds interleaved so the load of a shared machine falls
 * on both alike; and issue 34's: the same Cantrip World with a cast waiting
 * on every entity (`linger`, loaded with `drift` in one source) against it
 * without them:
 *
 *   npm run build && node --expose-gc --no-flush-bytecode dist/bench/embedding/world-ratio.js [--entities 1000,10000] [--rounds N]
 *
 * Prints the median ms per step of each and their ratio per entity count.
 * The waiting casts wake all at once every 20 steps, so that comparison
 * times whole 20-step cycles (the wake step counted once per cycle).
 * Times are the process's CPU time (user + system), not wall time: on a
 * machine shared with other jobs, time spent waiting for a core is not
 * counted (V8's GC and compiler threads are).
 * (The whole embedding suite, `npm run bench -- embedding`, prints the same
 * ratios beside the other engines; this is the quick loop for working on them.)
 */

import { parseArgs } from 'node:util';
import { median } from '../lang/measure.js';
import { cantripWorld, cantripWorldWithWaitingCasts, LINGER_PERIOD_STEPS, plainJsWorld, type TickContender } from './world-tick.js';
import { cpuMs } from '../spatial/table.js';

/** CPU ms per step over `steps` steps. */
function timeSteps(c: TickContender, steps: number): number {
  const start = cpuMs();
  for (let i = 0; i < steps; i++) c.step();
  return (cpuMs() - start) / steps;
}

/** Steps until V8 has settled (at least 3, up to 500 or 1.5 s), then on to a whole number of `cycle`s of steps. */
function warm(c: TickContender, cycle = 1): void {
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

function main(): void {
  const { values } = parseArgs({ options: { entities: { type: 'string', default: '1000,10000' }, rounds: { type: 'string', default: '15' } } });
  const sizes = values.entities.split(',').map(Number);
  const rounds = Math.max(1, Number(values.rounds) || 15);
  for (const n of sizes) {
    const spell = cantripWorld(n);
    const plain = plainJsWorld(n);
    warm(spell);
    warm(plain);
    const [ms, mp] = interleaved(spell, plain, Math.max(5, Math.round(200_000 / n)), rounds);
    const perEntity = ((ms - mp) * 1e6) / n;
    console.log(
      `${String(n).padStart(6)} entities: Cantrip World ${ms.toFixed(3)} ms/step, plain JS World ${mp.toFixed(3)} ms/step, ratio ${(ms / mp).toFixed(2)}×, scripting ${perEntity.toFixed(0)} ns per entity`,
    );
    const waiting = cantripWorldWithWaitingCasts(n);
    warm(spell, LINGER_PERIOD_STEPS);
    warm(waiting, LINGER_PERIOD_STEPS);
    const cycles = Math.max(1, Math.round(200_000 / n / LINGER_PERIOD_STEPS));
    const [mw, mt] = interleaved(waiting, spell, cycles * LINGER_PERIOD_STEPS, rounds);
    console.log(
      `${String(n).padStart(6)} entities: with a cast waiting on each ${mw.toFixed(3)} ms/step, without ${mt.toFixed(3)} ms/step, ratio ${(mw / mt).toFixed(2)}×`,
    );
  }
}

main();
