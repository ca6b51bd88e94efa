/**
 * What every zone room of this process shares: the grid, the zones this
 * process runs, and what players may be (the scenario's `players`). Colyseus
 * creates rooms by type name, so the rooms find it here rather than in their
 * creation options.
 */

import type { ZoneRuntime } from './zone.js';
import type { ZoneGrid } from './zone-grid.js';

export interface ServedWorld {
  readonly grid: ZoneGrid;
  /** The zones running in this process, by id. */
  readonly zones: Map<string, ZoneRuntime>;
  /** Breeds a player's avatar may be (the first is the default). */
  readonly playerBreeds: readonly string[];
  readonly spawn: { readonly x: number; readonly y: number };
  /** Spells a client may cast by name. */
  readonly spells: readonly string[];
  readonly breeds: readonly string[];
  /** How long an avatar waits for its player to come back (a dropped connection, a zone taken over) before it leaves the world. */
  readonly rejoinGraceMs: number;
}

let current: ServedWorld | null = null;

/** The world this process's zone rooms serve (one per process: Colyseus creates rooms by type name). */
export function shareServedWorld(world: ServedWorld): void {
  current = world;
}

export function servedWorld(): ServedWorld {
  if (current === null) throw new Error('No world is being served in this process.');
  return current;
}
