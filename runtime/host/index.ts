/**
 * The host API spells call in a world (Subclass Sandbox): the one table of
 * built-ins and the GameHost contract a cast holds (host-api.ts; the world's
 * implementation is runtime/world/world-game-host.ts); a game's own host functions, typed
 * (world-hosts.ts) and joined to the built-ins (world-host-table.ts);
 * functions only declared in an API file (declared-hosts.ts, for
 * `cantrip sim --api`); the generated reference (host-api-doc.ts).
 * This file is the folder's public face (runtime/index.ts re-exports it).
 */

export { GAME_HOST_FUNCTIONS, WORLD_HOST_FUNCTIONS, type GameHost, type CastContext } from './host-api.js';
export { worldHostFunction, type WorldHostContext, type TypedWorldHostFunction } from './world-hosts.js';
