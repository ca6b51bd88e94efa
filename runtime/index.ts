/**
 * The game runtime's public API: the World and the pieces it is built from
 * (pool, breeds, spatial indexes, AOI), the host API table, scenarios.
 */

export { World, type WorldOptions, type ResolvedWorldOptions, type CastResult, type EntityView, type SpellsReload } from './world/world.js';
export { GAME_HOST_FUNCTIONS, WORLD_HOST_FUNCTIONS, type GameHost, type CastContext } from './host/host-api.js';
export { worldHostFunction, type WorldHostContext, type TypedWorldHostFunction } from './host/world-hosts.js';
export {
  describeEvent,
  EntityNames,
  type BreedLookup,
  type WorldEvent,
  type WorldEventType,
  type WorldListener,
  type ListenerErrorHandler,
  type EntityId,
  type DespawnReason,
  type CastCancelReason,
} from './events/events.js';
export { BreedRegistry, BUILTIN_ENTITY_PROPERTIES, type Breed, type BreedData, type BreedDefinition, type BreedSpells, type AttributeValue } from './entities/breeds.js';
export { BREED_SCHEMA, BREED_SPELL_SLOTS } from './entities/breed-schema.js';
export { BreedError, ListenerError, SpellsCompileError, WorldError, type ListenerFailure } from './errors.js';
export { EntityPool, INDEX_LIMIT, NO_ENTITY, handleIndex, handleGeneration, type EntityHandle, type ExhaustionPolicy, type EntityPoolOptions } from './entities/entity-pool.js';
export { EntityRef } from './entities/entity-ref.js';
export type { SpatialIndex, PartitionKind, SpatialVisitor, PairVisitor, SpatialFilter } from './spatial/spatial-index.js';
export { GridIndex, type GridOptions } from './spatial/grid-index.js';
export { AxisListIndex, type AxisListOptions } from './spatial/axis-list-index.js';
export { AreaOfInterest, type InterestShape, type AoiEventKind, type AoiListener } from './aoi/aoi.js';
export { parseScenario, startScenario, runScenario, SCENARIO_SCHEMA, type Scenario, type ScenarioFiles, type ScenarioRun } from './scenario/scenario.js';
export { SNAPSHOT_FORMAT, type WorldSnapshot } from './snapshot/world-snapshot.js';
export { findJsonSyntaxError, type JsonSyntaxProblem } from './entities/json-syntax.js';
