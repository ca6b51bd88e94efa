/**
 * Step times of a zone at 10,000 scripted entities while it saves (issue 31:
 * p99 ≤ 50 ms at 20 Hz with saves on). One zone of wanderers (a tick spell
 * each, a journey cast waiting on many), a save every 2 s of zone time (the
 * default --snapshot-every), the in-memory store (what is measured is the
 * zone's own work: exporting the entities; Redis's write is I/O off the
 * step). Two ways: the whole save in the step that starts it (as before
 * issue 31), and spread over the steps after it, a few ms each, writing only
 * what changed (server/zone-saver.ts).
 */

import { seededRandom } from '../spatial/table.js';
import { ZoneGrid, benchZone } from './bench-world.js';

export interface StepDistribution {
  readonly how: string;
  readonly entities: number;
  readonly steps: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  /** Entities written by the last save, of those it visited. */
  readonly written: number;
  readonly visited: number;
}

export async function saveSteps(entities: number, steps: number): Promise<StepDistribution[]> {
  const rows: StepDistribution[] = [];
  for (const [how, sliceMs] of [
    ['save at once (before)', Infinity],
    ['save spread, 4 ms a step, changes only', 4],
  ] as const) {
    const side = Math.sqrt(entities * 25);
    const grid = new ZoneGrid(side * 2, side * 2, { columns: 2, rows: 2 }, 1);
    let clock = 0;
    const zone = await benchZone({ grid, zone: 'z0-0', saveEveryMs: 2000, saveSliceMs: sliceMs, now: () => clock });
    const random = seededRandom(11);
    for (let i = 0; i < entities; i++) await zone.spawn('Wanderer', random() * side, random() * side);
    zone.world.flush();
    for (let i = 0; i < 20; i++) {
      clock += 50;
      zone.step(); // warm-up: the journeys begin
    }
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      clock += 50;
      const start = performance.now();
      zone.step();
      times.push(performance.now() - start);
      await new Promise((resolve) => setImmediate(resolve)); // the store's writes complete between steps
    }
    times.sort((a, b) => a - b);
    const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    rows.push({ how, entities, steps, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: times.at(-1)!, ...zone.saver.lastRound });
    await zone.disconnect();
  }
  return rows;
}
