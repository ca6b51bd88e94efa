/**
 * `npm run bench -- snapshot`: what `World.restore` costs at game scale.
 * A 559 × 559 world of 10,000 entities (the density of a sparse MMO zone),
 * with no observers and with 5% of them observing (interest 8), for each
 * partition; the snapshot is JSON-parsed once and restored again and again,
 * the two worlds' runs interleaved so a busy moment of the shared machine
 * hits both. The target (issue 17): a world with observers restores within
 * 2× of one without. Results go to bench/results/snapshot.json.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { World, type WorldSnapshot } from '../../index.js';
import { RESULTS_DIR } from '../lang/paths.js';
import { median } from '../lang/measure.js';
import { fmt, formatTable, seededRandom } from '../spatial/table.js';

const SIZE = 559;
const ENTITIES = 10_000;
const OBSERVER_SHARE = 0.05;

export interface RestoreRow {
  readonly partition: 'grid' | 'axis';
  readonly msWithout: number;
  readonly msWith: number;
  readonly ratio: number;
}

/** A stepped world of ENTITIES rocks and watchers at seeded random places, as the JSON a save file holds. */
function savedWorld(partition: 'grid' | 'axis', observerShare: number): WorldSnapshot {
  const world = new World({ width: SIZE, height: SIZE, capacity: ENTITIES, seed: 3, partition });
  world.loadBreeds({ breeds: [{ name: 'Rock', health: 10 }, { name: 'Watcher', health: 10, interest: 8 }] });
  const random = seededRandom(17);
  for (let i = 0; i < ENTITIES; i++) world.spawn(random() < observerShare ? 'Watcher' : 'Rock', random() * SIZE, random() * SIZE);
  world.step(); // the AOI sets exist: what a save mid-game holds
  return JSON.parse(JSON.stringify(world.snapshot())) as WorldSnapshot;
}

function timeRestore(snapshot: WorldSnapshot): number {
  const start = performance.now();
  World.restore(snapshot);
  return performance.now() - start;
}

export async function run(options: { quick?: boolean; write?: boolean } = {}): Promise<RestoreRow[]> {
  const runs = options.quick ? 5 : 21;
  const rows: RestoreRow[] = [];
  for (const partition of ['grid', 'axis'] as const) {
    const without = savedWorld(partition, 0);
    const withObservers = savedWorld(partition, OBSERVER_SHARE);
    for (let i = 0; i < 3; i++) timeRestore(without), timeRestore(withObservers); // warm-up
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < runs; i++) {
      a.push(timeRestore(without));
      b.push(timeRestore(withObservers));
    }
    const msWithout = median(a);
    const msWith = median(b);
    rows.push({ partition, msWithout, msWith, ratio: msWith / msWithout });
  }
  process.stdout.write(
    `\nWorld.restore, ${ENTITIES.toLocaleString('en')} entities in ${SIZE} × ${SIZE} (median of ${runs}, ms)\n\n` +
      formatTable(
        ['partition', 'no observers', `${OBSERVER_SHARE * 100}% observers`, 'with ÷ without'],
        rows.map((r) => [r.partition, fmt(r.msWithout), fmt(r.msWith), `${r.ratio.toFixed(2)}×`]),
      ) +
      '\n',
  );
  if (options.write) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, 'snapshot.json'), JSON.stringify({ node: process.version, entities: ENTITIES, size: SIZE, runs, rows }, null, 2) + '\n');
  }
  return rows;
}
