#!/usr/bin/env node
/**
 * A world of auras for an hour of game time (issue 17): N priests each cast
 * spells/aura.spell — a loop that heals everyone near, then waits 0.05 s
 * — on a world stepped at 20 Hz, under the default budgets. Before budgets
 * bounded a slice, every aura died after 3,977 steps ("Out of fuel"); now
 * they must all live, and the memory they hold must stay flat.
 *
 *   node --expose-gc bench/sandbox/auras.mjs [dist-dir] [--auras 1000] [--steps 72000]
 *
 * Prints, every 10% of the run: the step, the casts still waiting, cast
 * errors so far, the world's heap units held (`world.heapHeld`), the JS heap
 * after a full collection, and ms per step since the last line. Figures for
 * the docs (docs/security.md); `tests/sandbox/slices.test.ts` runs a small
 * version (100 auras, a game minute) in `npm test`.
 */

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { auras: { type: 'string', default: '1000' }, steps: { type: 'string', default: '72000' } },
});
const dist = path.resolve(positionals[0] ?? path.join(repo, 'dist'));
const auras = Number(values.auras);
const steps = Number(values.steps);
const { World } = await import(pathToFileURL(path.join(dist, 'index.js')).href);

const AURA = readFileSync(path.join(repo, 'spells', 'aura.spell'), 'utf8');

const side = Math.ceil(Math.sqrt(auras)) * 12;
const world = new World({ width: side, height: side, step: 0.05, capacity: 2 * auras + 16, aoiMoveEvents: false });
world.loadBreeds({ breeds: [{ name: 'Priest', health: 100 }, { name: 'Villager', health: 50 }] });
world.loadSpells(AURA, 'aura.spell');
let errors = 0;
let firstError = '';
world.on((e) => {
  if (e.type === 'cast-error' || e.type === 'cast-cancelled') {
    if (errors++ === 0) firstError = e.message;
  }
});
const perRow = Math.ceil(Math.sqrt(auras));
for (let i = 0; i < auras; i++) {
  const x = 6 + (i % perRow) * 12;
  const y = 6 + Math.floor(i / perRow) * 12;
  const priest = world.spawn('Priest', x, y);
  world.spawn('Villager', x + 2, y);
  world.cast('aura', priest);
}

const gc = globalThis.gc ?? (() => {});
const jsHeapMb = () => {
  gc();
  return (process.memoryUsage().heapUsed / 1e6).toFixed(1);
};
console.log(`${auras} auras, ${steps} steps at 20 Hz (${(steps / 20 / 60).toFixed(0)} game minutes), dist ${dist}`);
console.log('step\twaiting\terrors\tworld heap units\tJS heap MB\tms/step');
console.log(`0\t${world.waitingCasts}\t${errors}\t${world.heapHeld}\t${jsHeapMb()}\t-`);
const every = Math.max(1, Math.floor(steps / 10));
let last = performance.now();
for (let step = 1; step <= steps; step++) {
  world.step();
  if (step % every === 0 || step === steps) {
    const now = performance.now();
    const ms = (now - last) / every;
    console.log(`${step}\t${world.waitingCasts}\t${errors}\t${world.heapHeld}\t${jsHeapMb()}\t${ms.toFixed(2)}`);
    last = performance.now();
  }
}
if (errors > 0) console.log(`first error: ${firstError}`);
process.exitCode = errors === 0 && world.waitingCasts === auras ? 0 : 1;
