/**
 * World options: what a world is created with, their defaults, and the
 * checks that turn bad options into a WorldError before anything is built.
 */

import { DEFAULT_BUDGETS, type Budgets } from '../../vm/budgets.js';
import type { HostFunction } from '../../vm/host.js';
import type { InterestShape } from '../aoi/aoi.js';
import { AxisListIndex } from '../spatial/axis-list-index.js';
import type { ExhaustionPolicy } from '../entities/entity-pool.js';
import { WorldError } from '../errors.js';
import { GridIndex } from '../spatial/grid-index.js';
import type { PartitionKind, SpatialIndex } from '../spatial/spatial-index.js';

const DEFAULT_STEP = 0.1;

export interface WorldOptions {
  width: number;
  height: number;
  /** Entity pool capacity. Default 1024. */
  capacity?: number;
  /** Largest the pool may grow to under the 'grow' policy. Default max(capacity, 65536). */
  maxCapacity?: number;
  /** What spawning does when the pool is full. Default 'error'. */
  policy?: ExhaustionPolicy;
  partition?: PartitionKind;
  /** Grid cell size / axis-list anchor spacing. Default 8. */
  cellSize?: number;
  interestShape?: InterestShape;
  /** Interest ranges (breeds, spells, buffs) are clamped to this, so no spell can make every entity watch every other. Default 100. */
  maxInterest?: number;
  /** Seed of random(). Default 1. */
  seed?: number;
  /** Fixed step in seconds. Default 0.1. */
  step?: number;
  /** At most this many steps per tick() call; the rest of the backlog is dropped (no spiral of death). Default 10. */
  maxStepsPerTick?: number;
  /** Budgets of every cast, for each slice (its start or a resume to its next wait or end). Default: DEFAULT_BUDGETS with fuel 1,000,000 and maxWait 600 s. */
  budgets?: Partial<Budgets>;
  /** Queue AOI 'move' notifications as events too (there are many). Default true. */
  aoiMoveEvents?: boolean;
  /**
   * Heap units (vm/costs.ts) that what outlives a cast may hold in this world together: what each waiting
   * cast keeps alive across its wait (measured then) and its value stack, and every entity field's name and text. A cast that would
   * wait past it fails, a field store past it is refused ('heap' budget errors). Default 32,000,000.
   */
  maxWorldHeap?: number;
  /** Events queued between two flushes (one step); past it, effect events are dropped and an 'overload' event counts them. Default 100,000. */
  maxEventsPerStep?: number;
  /** onEnter / onLeave handler casts one step may start; past it they are dropped and counted in an 'overload' event. Default 4,096. */
  maxHandlerCastsPerStep?: number;
  /** Characters of JSON a snapshot may take; snapshot() refuses a bigger world with a WorldError. Default 200,000,000. */
  maxSnapshotChars?: number;
  /**
   * The game's own host functions, added to the built-ins (see
   * runtime/world-hosts.ts: `worldHostFunction()` types their arguments).
   * A name that collides with a built-in is a WorldError. Not part of
   * `options` or snapshots (they are code): pass them to World.restore again.
   */
  hosts?: readonly HostFunction[];
}

/** The options as resolved (every default filled in); plain data, without the host functions. */
export type ResolvedWorldOptions = Required<Omit<WorldOptions, 'budgets' | 'hosts'>> & { budgets: Budgets };

export function resolveOptions(options: WorldOptions): ResolvedWorldOptions {
  const o: ResolvedWorldOptions = {
    width: options.width,
    height: options.height,
    capacity: options.capacity ?? 1024,
    maxCapacity: options.maxCapacity ?? Math.max(options.capacity ?? 1024, 65536),
    policy: options.policy ?? 'error',
    partition: options.partition ?? 'grid',
    cellSize: options.cellSize ?? 8,
    interestShape: options.interestShape ?? 'circle',
    maxInterest: options.maxInterest ?? 100,
    seed: options.seed ?? 1,
    step: options.step ?? DEFAULT_STEP,
    maxStepsPerTick: options.maxStepsPerTick ?? 10,
    aoiMoveEvents: options.aoiMoveEvents ?? true,
    maxWorldHeap: options.maxWorldHeap ?? 32_000_000,
    maxEventsPerStep: options.maxEventsPerStep ?? 100_000,
    maxHandlerCastsPerStep: options.maxHandlerCastsPerStep ?? 4096,
    maxSnapshotChars: options.maxSnapshotChars ?? 200_000_000,
    budgets: { ...DEFAULT_BUDGETS, fuel: 1_000_000, maxWait: 600, ...stripUndefined(options.budgets ?? {}) },
  };
  const positive = (name: string, v: number, max = 1e9): void => {
    if (!(typeof v === 'number' && v > 0 && v <= max)) throw new WorldError(`World option '${name}' must be a number in (0, ${max}], got ${String(v)}.`);
  };
  positive('width', o.width);
  positive('height', o.height);
  positive('capacity', o.capacity, 1 << 24);
  positive('maxCapacity', o.maxCapacity, 1 << 24);
  if (o.maxCapacity < o.capacity) throw new WorldError(`World option 'maxCapacity' must be at least 'capacity'.`);
  positive('cellSize', o.cellSize);
  positive('maxInterest', o.maxInterest, 1e9);
  positive('step', o.step, 60);
  positive('maxStepsPerTick', o.maxStepsPerTick, 1000);
  positive('maxWorldHeap', o.maxWorldHeap, Infinity);
  positive('maxEventsPerStep', o.maxEventsPerStep, Infinity);
  positive('maxHandlerCastsPerStep', o.maxHandlerCastsPerStep, Infinity);
  positive('maxSnapshotChars', o.maxSnapshotChars, 1e9);
  if (!['grid', 'axis'].includes(o.partition)) throw new WorldError(`World option 'partition' must be 'grid' or 'axis'.`);
  if (!['square', 'circle'].includes(o.interestShape)) throw new WorldError(`World option 'interestShape' must be 'square' or 'circle'.`);
  if (!['error', 'grow', 'recycle-oldest'].includes(o.policy)) throw new WorldError(`World option 'policy' must be 'error', 'grow' or 'recycle-oldest'.`);
  if ((o.width / o.cellSize) * (o.height / o.cellSize) > 1 << 24) throw new WorldError('World has too many cells; use a larger cellSize.');
  o.capacity = Math.floor(o.capacity);
  o.maxCapacity = Math.floor(o.maxCapacity);
  o.seed = Number.isFinite(o.seed) ? o.seed : 1;
  return o;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function makeIndex(o: ResolvedWorldOptions, capacity: number): SpatialIndex {
  return o.partition === 'axis'
    ? new AxisListIndex({ width: o.width, height: o.height, anchorSpacing: o.cellSize, capacity })
    : new GridIndex({ width: o.width, height: o.height, cellSize: o.cellSize, capacity });
}
