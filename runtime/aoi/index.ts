/**
 * The area of interest: enter / move / leave news for what changed since
 * the last step. aoi.ts is the facade (finds what changed, drives one
 * engine); aoi-engine.ts is the contract every engine implements;
 * aoi-engines.ts registers them by name ('grid': aoi-grid.ts with its
 * bucket grid and observer sets; 'triggers': aoi-triggers-engine.ts over
 * the range triggers of aoi-triggers.ts and the pair matrix of
 * aoi-pairs.ts); aoi-outbox.ts delivers the news in one canonical order.
 * This file is the folder's public face (runtime/index.ts re-exports it).
 */

export { AreaOfInterest, type AoiIdentity, type AoiOptions } from './aoi.js';
export type { AoiEngine, InterestShape, AoiListener } from './aoi-engine.js';
export { AOI_ENGINE_NAMES, type AoiEngineName } from './aoi-engines.js';
