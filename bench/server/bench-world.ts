/**
 * What the server benchmarks share: a zone of the example wanderers
 * (spells/wanderers.spell, spells/zone-breeds.json: a tick spell on every
 * entity, one cast waiting), built without a scenario file.
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { World } from '../../index.js';
import { LocalZoneBus } from '../../server/local-zone-bus.js';
import { MemoryOwnershipStore } from '../../server/memory-ownership-store.js';
import type { OwnershipStore } from '../../server/ownership-store.js';
import { ZoneRuntime } from '../../server/zone.js';
import type { ZoneBus } from '../../server/zone-bus.js';
import { ZoneGrid } from '../../server/zone-grid.js';

const SPELLS = fileURLToPath(new URL('../../../spells/', import.meta.url));

export const WANDERER_SPELLS = readFileSync(`${SPELLS}wanderers.spell`, 'utf8');
export const ZONE_BREEDS = readFileSync(`${SPELLS}zone-breeds.json`, 'utf8');

export function wanderersWorld(width: number, height: number): () => World {
  return () => {
    const world = new World({ width, height, step: 0.05, policy: 'grow', capacity: 1024, partition: 'grid', cellSize: 8, aoiMoveEvents: false, maxEventsPerStep: 1_000_000 });
    world.loadSpells(WANDERER_SPELLS, 'wanderers.spell');
    world.loadBreeds(ZONE_BREEDS);
    return world;
  };
}

export interface BenchZoneOptions {
  readonly grid: ZoneGrid;
  readonly zone: string;
  readonly store?: OwnershipStore;
  readonly bus?: ZoneBus;
  /** Milliseconds between saves (default 0: none) and the time a step may spend on one (server/zone-saver.ts). */
  readonly saveEveryMs?: number;
  readonly saveSliceMs?: number;
  /** The zone's clock (default Date.now). */
  readonly now?: () => number;
}

/** A zone runtime of the wanderers world (in-memory store and bus unless given). */
export async function benchZone(o: BenchZoneOptions): Promise<ZoneRuntime> {
  const rect = o.grid.zone(o.zone)!;
  const zone = new ZoneRuntime({
    grid: o.grid,
    zone: rect,
    store: o.store ?? new MemoryOwnershipStore(),
    bus: o.bus ?? new LocalZoneBus(),
    makeWorld: wanderersWorld(o.grid.width, o.grid.height),
    ghostRange: 10,
    handoverTimeoutMs: 5000,
    saveEveryMs: o.saveEveryMs ?? 0,
    saveSliceMs: o.saveSliceMs,
    now: o.now,
  });
  await zone.connect();
  return zone;
}

export { ZoneGrid };
