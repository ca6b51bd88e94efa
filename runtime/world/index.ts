/**
 * The world (Game Loop, Update Method): World (world.ts) is the facade
 * over parts that share one WorldState (world-state.ts) — entities' life
 * (world-entities.ts), what `e.name` reads and writes
 * (world-properties.ts), modules, VMs and casts (world-casting.ts; the
 * handles the embedder lists and cancels them by, cast-handles.ts), buffs
 * (world-buffs.ts), the memory budget (world-memory.ts) — with its options
 * (world-options.ts), timers (min-heap.ts) and seeded random source
 * (rng.ts).
 * This file is the folder's public face (runtime/index.ts re-exports it).
 */

export { World, type CastResult, type EntityView, type EntityField, type SpellsReload, type GameEventsOption } from './world.js';
export type { WorldOptions, ResolvedWorldOptions } from './world-options.js';
export type { CastFilter, CastId, CastInfo } from './cast-handles.js';
export type { LoadSpellsOptions, InFlightPolicy, KeptCast } from './world.js';
export type { WorldLogger } from './overload-warnings.js';
export { HOT_FIELDS, type HotField } from './world-properties.js';
