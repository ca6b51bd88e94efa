/**
 * A save game is untrusted input (docs/security.md, "Saves"): before
 * World.restore allocates anything for a snapshot, this checks its shape
 * (world-snapshot-schema.ts), works out the options the restored world is
 * made with — the embedder's limits govern, a save may carry lower ones,
 * never higher — and checks every size and count in the save against them:
 * the pool against maxCapacity, the entities' fields against maxWorldHeap,
 * ids unique and nextId none of them, buffs no more than a spell could make.
 * Each problem is a WorldError naming the field as a JSON path. The VM
 * states are checked by restoreVm (vm/fiber-snapshot.ts) as they restore.
 */

import type { Budgets } from '../../vm/budgets.js';
import { jsonSizeProblem } from '../../vm/json-size.js';
import { POOL_ARRAYS } from '../entities/entity-pool.js';
import { WorldError } from '../errors.js';
import { fieldCost } from '../world/world-memory.js';
import { resolveOptions, type ResolvedWorldOptions, type WorldOptions } from '../world/world-options.js';
import { checkWorldSnapshotShape } from './world-snapshot-schema.js';
import { decodeField } from './field-codec.js';
import type { WorldSnapshot } from './world-snapshot.js';

/** World options that are limits: a restored world gets the lower of the save's and the embedder's. */
export const CAPPED_OPTIONS = [
  'maxCapacity',
  'maxInterest',
  'maxStepsPerTick',
  'maxWorldHeap',
  'maxEventsPerStep',
  'maxHandlerCastsPerStep',
  'maxSnapshotChars',
] as const;
type CappedOption = (typeof CAPPED_OPTIONS)[number];

/**
 * What the embedder passes to World.restore: its own host functions (code,
 * not data), where warnings go (`logger`), and the limits that govern the restored world — the budgets of
 * every cast and the world's own limits. Each defaults to what a new World
 * has; a save may carry lower values, never higher.
 */
export type RestoreOptions = Pick<WorldOptions, 'hosts' | 'budgets' | 'logger' | 'tier' | CappedOption>;

/** The saved options as JSON holds them: limits may be null (Infinity). */
type SavedOptions = Omit<ResolvedWorldOptions, 'budgets' | CappedOption> & {
  readonly budgets: Readonly<Partial<Record<keyof Budgets, number | null>>>;
} & Readonly<Partial<Record<CappedOption, number | null>>>;

function malformed(path: string, message: string): never {
  throw new WorldError(`The world snapshot is malformed: ${path}${message}`);
}

/** Check `snapshot` before anything is built from it; returns the options to make the restored world with. */
export function checkWorldSnapshot(snapshot: unknown, embedder: RestoreOptions): WorldOptions {
  const allowed = allowedBy(embedder);
  // First a bound on the work of reading it at all: a structured clone may share objects (or hold a cycle).
  const tooBig = jsonSizeProblem(snapshot, allowed.maxSnapshotChars);
  if (tooBig !== null) throw new WorldError(`The world snapshot is malformed: ${tooBig}`);
  checkWorldSnapshotShape(snapshot);
  const data = snapshot as WorldSnapshot;
  const options = restoredOptions(data.options as unknown as SavedOptions, embedder, allowed);
  const resolved = resolveOptions(options);
  checkPool(data, resolved);
  checkEntities(data, resolved);
  checkAoi(data);
  return options;
}

/** The embedder's budgets and limits, defaults filled in, checked as a new World's would be (a bad budget of the embedder's is its error, not the save's). */
function allowedBy(embedder: RestoreOptions): ResolvedWorldOptions {
  const limits: WorldOptions = { width: 1, height: 1, capacity: 1, budgets: embedder.budgets };
  for (const key of CAPPED_OPTIONS) limits[key] = embedder[key];
  return resolveOptions(limits);
}

/** The save's options with every budget and limit capped by the embedder's (or a new World's defaults). */
function restoredOptions(saved: SavedOptions, embedder: RestoreOptions, allowed: ResolvedWorldOptions): WorldOptions {
  const budgets = { ...allowed.budgets };
  for (const key of Object.keys(budgets) as (keyof Budgets)[]) {
    const value = saved.budgets[key];
    if (value !== undefined) budgets[key] = Math.min(value ?? Infinity, allowed.budgets[key]);
  }
  const options: WorldOptions = { ...(saved as Omit<SavedOptions, 'budgets' | CappedOption>), budgets, hosts: embedder.hosts };
  for (const key of CAPPED_OPTIONS) {
    const value = saved[key];
    options[key] = value === undefined ? allowed[key] : Math.min(value ?? Infinity, allowed[key]);
  }
  options.capacity = Math.min(saved.capacity ?? 1, options.maxCapacity!);
  return options;
}

/** The pool's size against maxCapacity, and its arrays against its size, before EntityPool.fromState allocates them. */
function checkPool(data: WorldSnapshot, options: ResolvedWorldOptions): void {
  const { capacity, count, arrays } = data.pool;
  if (capacity > options.maxCapacity) malformed('$.pool.capacity', `: ${capacity} slots, more than maxCapacity (${options.maxCapacity}) allows.`);
  if (count > capacity) malformed('$.pool.count', `: ${count} entities in ${capacity} slots.`);
  for (const name of POOL_ARRAYS) {
    const values = arrays[name];
    if (values === undefined) malformed('$.pool.arrays', ` is missing its array '${name}'.`);
    if (values.length !== capacity) malformed(`$.pool.arrays.${name}`, `: ${values.length} values, the pool has ${capacity} slots.`);
  }
  if (data.entities.length !== count) malformed('$.entities', `: ${data.entities.length} entities, the pool holds ${count}.`);
  if (data.reap.length > count) malformed('$.reap', `: ${data.reap.length} entities to reap, the pool holds ${count}.`);
}

/** Slots and ids unique, nextId no entity's id, interest within maxInterest, buffs older than castSeq, fields within maxWorldHeap. */
function checkEntities(data: WorldSnapshot, options: ResolvedWorldOptions): void {
  const slots = new Set<number>();
  const ids = new Map<number, number>();
  let fieldUnits = 0;
  data.entities.forEach((e, i) => {
    const at = `$.entities[${i}]`;
    if (e.slot >= data.pool.capacity || slots.has(e.slot)) malformed(`${at}.slot`, `: slot ${e.slot} is outside the pool or taken by another entity.`);
    slots.add(e.slot);
    const other = ids.get(e.id);
    if (other !== undefined) malformed(`${at}.id`, `: id ${e.id} is also $.entities[${other}]'s.`);
    ids.set(e.id, i);
    // Ids above nextId are entities imported from another world (World.importEntity): spawns skip ids taken.
    if (e.id === data.nextId) malformed('$.nextId', `: ${data.nextId} is the id of ${at}: the next entity spawned would share it.`);
    const interest = data.pool.arrays.interest[e.slot]!;
    if (interest > options.maxInterest) malformed(`$.pool.arrays.interest[${e.slot}]`, `: ${interest}, more than maxInterest (${options.maxInterest}).`);
    const names = new Set<string>();
    e.fields.forEach(([name, value], k) => {
      if (names.has(name)) malformed(`${at}.fields[${k}][0]`, `: the field '${name.slice(0, 64)}' appears twice.`);
      names.add(name);
      fieldUnits += fieldCost(name, decodeField(value));
    });
    e.modifiers.forEach((m, k) => {
      if (m.seq >= data.castSeq) malformed(`${at}.modifiers[${k}].seq`, `: ${m.seq} is not below castSeq (${data.castSeq}).`);
    });
  });
  if (fieldUnits > options.maxWorldHeap) {
    malformed('$.entities', `: the entities' fields hold ${fieldUnits} heap units, more than maxWorldHeap (${options.maxWorldHeap}).`);
  }
}

/** No more AOI records than the pool has slots (the next update visits each). */
function checkAoi(data: WorldSnapshot): void {
  const { capacity } = data.pool;
  const { observers, lastPositions } = data.aoi;
  if (lastPositions.length > capacity) malformed('$.aoi.lastPositions', `: ${lastPositions.length} entries, the pool has ${capacity} slots.`);
  if (observers.length > capacity) malformed('$.aoi.observers', `: ${observers.length} entries, the pool has ${capacity} slots.`);
  observers.forEach((o, i) => {
    if (o.seen.length > capacity) malformed(`$.aoi.observers[${i}].seen`, `: ${o.seen.length} entries, the pool has ${capacity} slots.`);
  });
}
