/**
 * The spatial indexes (Spatial Partition): one SpatialIndex interface
 * (radius, rectangle and nearest queries, neighbour pairs) and two
 * implementations, a uniform grid with per-cell linked lists and sorted
 * axis lists. The world's `partition` option picks one.
 * This file is the folder's public face (runtime/index.ts re-exports it).
 */

export type { SpatialIndex, PartitionKind, SpatialVisitor, PairVisitor, SpatialFilter } from './spatial-index.js';
export { SpatialIndexError } from './spatial-index.js';
export { GridIndex, type GridOptions } from './grid-index.js';
export { AxisListIndex, type AxisListOptions } from './axis-list-index.js';
