/**
 * World options: what a world is created with, their defaults, and the
 * checks that turn bad options into a WorldError before anything is built.
 */

import { quoted } from '../../vm/bounded-text.js';
import { DEFAULT_BUDGETS, type Budgets } from '../../vm/budgets.js';
import { DEFAULT_MAX_SNAPSHOT_CHARS } from '../../vm/fiber-snapshot.js';
import { describeNonString } from '../../vm/name-argument.js';
import type { HostFunction } from '../../vm/host.js';
import type { Tier } from '../../vm/vm.js';
import type { InterestShape } from '../aoi/aoi-engine.js';
import { AOI_ENGINE_NAMES, defaultAoiEngine, isAoiEngineName, type AoiEngineName } from '../aoi/aoi-engines.js';
import { AxisListIndex } from '../spatial/axis-list-index.js';
import type { ExhaustionPolicy } from '../entities/entity-pool.js';
import { WorldError } from '../errors.js';
import { GridIndex } from '../spatial/grid-index.js';
import type { PartitionKind, SpatialIndex } from '../spatial/spatial-index.js';
import type { WorldLogger } from './overload-warnings.js';

const DEFAULT_STEP = 0.1;

/**
 * A world's default fiber budget (casts alive at once in one of its VMs, one per loaded source): ten times
 * a bare VM's. A world's entities each keep casts alive — an aura, a journey waiting — while their tick
 * spells run, so a world of 10,000 entities with one cast waiting on each needs 10,001 at once; at the VM's
 * 10,000 every tick cast of such a world failed with "Too many fibers" (issue 34, item 6). 100,000 fits
 * the default maxCapacity (65,536) with one waiting cast each and room to spare; a waiting fiber takes
 * ~1.5 KB of the process's heap, so the budget still bounds a VM's fibers at ~150 MB.
 */
export const WORLD_MAX_FIBERS = 100_000;

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
  /** The AOI engine (runtime/aoi/aoi-engines.ts). Default: 'triggers' when partition is 'axis', 'grid' otherwise. */
  aoi?: AoiEngineName;
  interestShape?: InterestShape;
  /** Interest ranges (breeds, spells, buffs) are clamped to this, so no spell can make every entity watch every other. Default 100. */
  maxInterest?: number;
  /** Seed of random(). Default 1. */
  seed?: number;
  /** Fixed step in seconds. Default 0.1. */
  step?: number;
  /** At most this many steps per tick() call; the rest of the backlog is dropped (no spiral of death). Default 10. */
  maxStepsPerTick?: number;
  /**
   * Budgets of every cast, for each slice (its start or a resume to its next wait or end). Default: DEFAULT_BUDGETS
   * (maxWait 3,600 s) with fuel 1,000,000 and maxFibers WORLD_MAX_FIBERS.
   */
  budgets?: Partial<Budgets>;
  /**
   * Queue AOI 'move' notifications (an entity moved inside an observer's range) as events too.
   * Default false: they outnumber enter and leave many times over, and no breed slot reacts to
   * them; a game that streams positions to observers (a server) turns them on.
   */
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
   * runtime/host/world-hosts.ts: `worldHostFunction()` types their arguments).
   * A name that collides with a built-in is a WorldError. Not part of
   * `options` or snapshots (they are code): pass them to World.restore again.
   */
  hosts?: readonly HostFunction[];
  /**
   * Where the world writes warnings for the game's developers (a step that dropped handler casts
   * or events past its caps). Default console.warn; `() => {}` silences it. Code, like `hosts`:
   * not part of `options` or snapshots.
   */
  logger?: WorldLogger;
  /**
   * Which tier runs the world's spells (VMOptions.tier): `'auto'` (default)
   * compiles hot functions to JavaScript; `'interpreter'` never does. The
   * same events, results and snapshots either way. Not part of `options` or
   * snapshots.
   */
  tier?: Tier;
}

/** The options as resolved (every default filled in); plain data, without the host functions. */
export type ResolvedWorldOptions = Required<Omit<WorldOptions, 'budgets' | 'hosts' | 'logger' | 'tier'>> & { budgets: Budgets };

export function resolveOptions(options: WorldOptions): ResolvedWorldOptions {
  const o: ResolvedWorldOptions = {
    width: options.width,
    height: options.height,
    capacity: options.capacity ?? 1024,
    maxCapacity: options.maxCapacity ?? Math.max(options.capacity ?? 1024, 65536),
    policy: options.policy ?? 'error',
    partition: options.partition ?? 'grid',
    cellSize: options.cellSize ?? 8,
    aoi: options.aoi ?? defaultAoiEngine(options.partition ?? 'grid'),
    interestShape: options.interestShape ?? 'circle',
    maxInterest: options.maxInterest ?? 100,
    seed: options.seed ?? 1,
    step: options.step ?? DEFAULT_STEP,
    maxStepsPerTick: options.maxStepsPerTick ?? 10,
    aoiMoveEvents: options.aoiMoveEvents ?? false,
    maxWorldHeap: options.maxWorldHeap ?? 32_000_000,
    maxEventsPerStep: options.maxEventsPerStep ?? 100_000,
    maxHandlerCastsPerStep: options.maxHandlerCastsPerStep ?? 4096,
    maxSnapshotChars: options.maxSnapshotChars ?? DEFAULT_MAX_SNAPSHOT_CHARS,
    budgets: { ...DEFAULT_BUDGETS, fuel: 1_000_000, maxFibers: WORLD_MAX_FIBERS, ...stripUndefined(options.budgets ?? {}) },
  };
  const positive = (name: string, v: number, max = 1e9): void => {
    if (!(typeof v === 'number' && v > 0 && v <= max)) throw new WorldError(`World option '${name}' must be a number in (0, ${max}], got ${String(v)}.`);
  };
  checkBudgets(o.budgets);
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
  if (!isAoiEngineName(o.aoi)) throw new WorldError(`World option 'aoi' must be one of ${AOI_ENGINE_NAMES.map((n) => `'${n}'`).join(', ')}.`);
  if (!['square', 'circle'].includes(o.interestShape)) throw new WorldError(`World option 'interestShape' must be 'square' or 'circle'.`);
  if (!['error', 'grow', 'recycle-oldest'].includes(o.policy)) throw new WorldError(`World option 'policy' must be 'error', 'grow' or 'recycle-oldest'.`);
  if ((o.width / o.cellSize) * (o.height / o.cellSize) > 1 << 24) throw new WorldError('World has too many cells; use a larger cellSize.');
  o.capacity = Math.floor(o.capacity);
  o.maxCapacity = Math.floor(o.maxCapacity);
  o.seed = Number.isFinite(o.seed) ? o.seed : 1;
  return o;
}

/** Every budget a number ≥ 0 (Infinity: no limit): a string or an object is not read as "no limit". A name the VM has no budget for is a typo. */
function checkBudgets(budgets: object): void {
  for (const [key, value] of Object.entries(budgets) as [string, unknown][]) {
    if (!Object.hasOwn(DEFAULT_BUDGETS, key)) {
      throw new WorldError(`World option 'budgets' has no budget ${quoted(key)} (the budgets are ${Object.keys(DEFAULT_BUDGETS).join(', ')}).`);
    }
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
      const got = typeof value === 'number' ? String(value) : describeNonString(value);
      throw new WorldError(`World option 'budgets.${key}' must be a number ≥ 0 (Infinity for no limit), not ${got}.`);
    }
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function makeIndex(o: ResolvedWorldOptions, capacity: number): SpatialIndex {
  return o.partition === 'axis'
    ? new AxisListIndex({ width: o.width, height: o.height, anchorSpacing: o.cellSize, capacity })
    : new GridIndex({ width: o.width, height: o.height, cellSize: o.cellSize, capacity });
}
