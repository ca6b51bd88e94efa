/**
 * `npm run bench -- reload`: what a live reload costs with casts in flight
 * (World.loadSpells' `inFlight`). A world of 1,000 mages, each waiting in an
 * aura (`while (true) { …; wait(0.05); }`, a local and a loop: the designer's
 * usual case), reloaded again and again between two versions that differ in a
 * constant: with 'continue' every reload moves the 1,000 waiting casts into
 * the new code (runtime/world/cast-reload.ts); with 'keep' it only compiles
 * and loads (the floor). Runs of the two interleaved, so a busy moment of the
 * shared machine hits both. Beside them, 1,000 fresh casts of the aura to
 * their first wait: moving a cast should cost no more than casting it.
 * Target (issue 32): a reload with 1,000 auras waiting ≤ 20 ms.
 */

import { World } from '../../index.js';
import { median } from '../lang/measure.js';
import { fmt, formatTable } from '../spatial/table.js';

const AURAS = 1_000;

const aura = (pulse: number) => `
spell aura(self, t) {
  var pulses = 0;
  var strength = self.health / 10;
  while (true) {
    pulses += 1;
    if (pulses % ${pulse} == 0) strength += 1;
    wait(0.05);
  }
}
`;

function auraWorld(): World {
  const world = new World({ width: 500, height: 500, capacity: AURAS, seed: 1, step: 0.05 });
  world.loadBreeds({ breeds: [{ name: 'Mage', health: 30 }] });
  world.loadSpells(aura(7), 'auras.spell');
  for (let i = 0; i < AURAS; i++) world.cast('aura', world.spawn('Mage', (i * 7) % 500, (i * 13) % 500));
  world.step();
  return world;
}

/** One reload of `world` to the other version, in ms; checks every aura came along (or none, for 'keep'). */
function timeReload(world: World, version: number, inFlight: 'continue' | 'keep'): number {
  const start = performance.now();
  world.loadSpells(aura(version), 'auras.spell', { inFlight });
  const ms = performance.now() - start;
  const moved = world.lastLoad!.continued.length;
  if (moved !== (inFlight === 'continue' ? AURAS : 0)) throw new Error(`the reload moved ${moved} casts: ${JSON.stringify(world.lastLoad!.kept[0])}`);
  world.step();
  return ms;
}

function timeFreshCasts(): number {
  const world = new World({ width: 500, height: 500, capacity: AURAS, seed: 1, step: 0.05 });
  world.loadBreeds({ breeds: [{ name: 'Mage', health: 30 }] });
  world.loadSpells(aura(7), 'auras.spell');
  const ids: number[] = [];
  for (let i = 0; i < AURAS; i++) ids.push(world.spawn('Mage', (i * 7) % 500, (i * 13) % 500));
  const start = performance.now();
  for (const id of ids) world.cast('aura', id);
  return performance.now() - start;
}

export interface ReloadRow {
  readonly what: string;
  readonly ms: number;
}

export async function run(options: { quick?: boolean } = {}): Promise<ReloadRow[]> {
  const runs = options.quick ? 5 : 15;
  const moving = auraWorld();
  const keeping = auraWorld();
  const cont: number[] = [];
  const keep: number[] = [];
  const fresh: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const c = timeReload(moving, i % 2 === 0 ? 11 : 7, 'continue');
    const k = timeReload(keeping, i % 2 === 0 ? 11 : 7, 'keep');
    const f = timeFreshCasts();
    if (i >= 3) (cont.push(c), keep.push(k), fresh.push(f)); // the first three warm up
  }
  const rows: ReloadRow[] = [
    { what: `reload, ${AURAS.toLocaleString('en')} auras waiting, inFlight 'continue'`, ms: median(cont) },
    { what: "reload, the same, inFlight 'keep' (compile and load only)", ms: median(keep) },
    { what: `${AURAS.toLocaleString('en')} fresh casts of the aura to their first wait`, ms: median(fresh) },
  ];
  process.stdout.write(
    `\nLive reload with casts in flight (median of ${runs}, ms; the machine is shared: compare rows of one run)\n\n` +
      formatTable(['', 'ms'], rows.map((r) => [r.what, fmt(r.ms)])) +
      `\n  moving a cast: ${fmt(((median(cont) - median(keep)) / AURAS) * 1000)} µs, a fresh cast: ${fmt((median(fresh) / AURAS) * 1000)} µs; target: the reload ≤ 20 ms\n`,
  );
  return rows;
}
