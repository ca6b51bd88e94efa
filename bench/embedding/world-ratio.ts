/**
 * Issue 20's world target on its own: Cantrip World.step (the `drift` tick
 * spell) against the same World stepped by plain JS through its public API,
 * in one process, rounds interleaved so the load of a shared machine falls
 * on both alike:
 *
 *   npm run build && node --expose-gc --no-flush-bytecode dist/bench/embedding/world-ratio.js [--entities 1000,10000] [--rounds N]
 *
 * Prints the median ms per step of each and their ratio per entity count.
 * Times are the process's CPU time (user + system), not wall time: on a
 * machine shared with other jobs, time spent waiting for a core is not
 * counted (V8's GC and compiler threads are).
 * (The whole embedding suite, `npm run bench -- embedding`, prints the same
 * ratio beside the other engines; this is the quick loop for working on it.)
 */

import { parseArgs } from 'node:util';
import { median } from '../lang/measure.js';
import { cantripWorld, plainJsWorld, type TickContender } from './world-tick.js';
import { cpuMs } from '../spatial/table.js';


/** CPU ms per step over `steps` steps. */
function timeSteps(c: TickContender, steps: number): number {
  const start = cpuMs();
  for (let i = 0; i < steps; i++) c.step();
  return (cpuMs() - start) / steps;
}

function warm(c: TickContender): void {
  const start = performance.now();
  for (let i = 0; i < 500 && (i < 3 || performance.now() - start < 1500); i++) c.step();
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
    const steps = Math.max(5, Math.round(200_000 / n));
    const ts: number[] = [];
    const tp: number[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        ts.push(timeSteps(spell, steps));
        tp.push(timeSteps(plain, steps));
      } else {
        tp.push(timeSteps(plain, steps));
        ts.push(timeSteps(spell, steps));
      }
    }
    const [ms, mp] = [median(ts), median(tp)];
    const perEntity = ((ms - mp) * 1e6) / n;
    console.log(
      `${String(n).padStart(6)} entities: Cantrip World ${ms.toFixed(3)} ms/step, plain JS World ${mp.toFixed(3)} ms/step, ratio ${(ms / mp).toFixed(2)}×, scripting ${perEntity.toFixed(0)} ns per entity`,
    );
  }
}

main();
