/**
 * The AOI engines, by the name the `aoi` world option gives them. A new
 * engine is one file implementing AoiEngine (aoi-engine.ts) and one line
 * here; the world's options, the scenario schema and the docs read the
 * names from this table.
 */

import type { AoiEngineFactory } from './aoi-engine.js';
import { GridSets } from './aoi-grid.js';
import { TriggersEngine } from './aoi-triggers-engine.js';
import type { PartitionKind } from '../spatial/spatial-index.js';

export const AOI_ENGINES = {
  /** Observer sets on a grid of the engine's own; a changed entity looks only at the cells it left and entered (aoi-grid.ts). */
  grid: (frame, index) => new GridSets(frame, index),
  /** KBEngine's range triggers on sorted axis lists, pairs in a cross-linked matrix (aoi-triggers-engine.ts). */
  triggers: (frame, index) => new TriggersEngine(frame, index),
} as const satisfies Record<string, AoiEngineFactory>;

export type AoiEngineName = keyof typeof AOI_ENGINES;

export const AOI_ENGINE_NAMES = Object.keys(AOI_ENGINES) as readonly AoiEngineName[];

/** The engine a world uses when its options name none: range triggers beside axis lists, the grid engine otherwise. */
export function defaultAoiEngine(partition: PartitionKind): AoiEngineName {
  return partition === 'axis' ? 'triggers' : 'grid';
}

export function isAoiEngineName(name: unknown): name is AoiEngineName {
  return typeof name === 'string' && Object.hasOwn(AOI_ENGINES, name);
}
