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
import { interleaved, waitingCastsSteps, warm } from './interleaved-steps.js';
import { cantripWorld, plainJsWorld } from './world-tick.js';

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
    const { withMs: mw, withoutMs: mt } = waitingCastsSteps(n, rounds);
    console.log(
      `${String(n).padStart(6)} entities: with a cast waiting on each ${mw.toFixed(3)} ms/step, without ${mt.toFixed(3)} ms/step, ratio ${(mw / mt).toFixed(2)}×`,
    );
  }
}

main();
