/**
 * Entities per process at 20 Hz: one zone of N wanderers, each running its
 * tick spell every step (the server's own work included: border checks,
 * ghosts for the neighbours), timed per step; the entities one process can
 * step at 20 Hz are N × 50 ms ÷ (ms per step). Target (issue 21): ≥ 10,000.
 */

import { median } from '../lang/measure.js';
import { seededRandom } from '../spatial/table.js';
import { ZoneGrid, benchZone } from './bench-world.js';

export interface CapacityRow {
  readonly entities: number;
  readonly msPerStep: number;
  /** Entities a process could step at 20 Hz, at this density. */
  readonly entitiesAt20Hz: number;
}

export async function zoneCapacity(counts: readonly number[], steps: number): Promise<CapacityRow[]> {
  const rows: CapacityRow[] = [];
  for (const n of counts) {
    // A density of one wanderer per 25 square units, the zone one of a 2×2 grid.
    const side = Math.sqrt(n * 25);
    const grid = new ZoneGrid(side * 2, side * 2, { columns: 2, rows: 2 }, 1);
    const zone = await benchZone({ grid, zone: 'z0-0' });
    const random = seededRandom(11);
    for (let i = 0; i < n; i++) await zone.spawn('Wanderer', random() * side, random() * side);
    zone.world.flush();
    for (let i = 0; i < 20; i++) zone.step(); // warm-up: the journeys begin
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      const start = performance.now();
      zone.step();
      times.push(performance.now() - start);
    }
    const msPerStep = median(times);
    rows.push({ entities: n, msPerStep, entitiesAt20Hz: Math.floor((n * 50) / msPerStep) });
    await zone.disconnect();
  }
  return rows;
}
