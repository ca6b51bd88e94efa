/**
 * The game runtime's public API, folder by folder (docs/runtime.md, "The
 * runtime's folders", maps them):
 *
 *   entities/  the pool, breeds, entity state and the references spells hold
 *   spatial/   the spatial indexes: a uniform grid and sorted axis lists
 *   aoi/       the area of interest: a facade driving one engine behind one contract
 *   events/    event types, each declared once; describing them
 *   host/      the host API spells call in a world, and a game's own host functions
 *   world/     the World facade over its parts, the loop, casting, options
 *   snapshot/  the world as JSON, and back
 *   scenario/  headless simulations described as data (`cantrip sim`)
 *   errors.ts  the runtime's error classes
 *   generated-doc.ts  the sections of docs/runtime.md generated from code
 */

export * from './world/index.js';
export * from './host/index.js';
export * from './events/index.js';
export * from './entities/index.js';
export * from './spatial/index.js';
export * from './aoi/index.js';
export * from './scenario/index.js';
export * from './snapshot/index.js';
export { BreedError, ListenerError, SpellsCompileError, WorldError, type ListenerFailure } from './errors.js';
