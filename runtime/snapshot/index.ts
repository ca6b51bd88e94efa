/**
 * Snapshots: the whole world as plain JSON (world-snapshot.ts) — its casts
 * in flight with the heap they reach (world-casts-snapshot.ts), its queued
 * events (queued-events-snapshot.ts) — measured while built
 * (snapshot-size.ts), and restored as untrusted data.
 * This file is the folder's public face (runtime/index.ts re-exports it).
 */

export { SNAPSHOT_FORMAT, type WorldSnapshot } from './world-snapshot.js';
export type { RestoreOptions } from './world-snapshot-check.js';
export type { ExportedEntity } from './entity-export.js';
