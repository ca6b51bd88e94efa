/**
 * The shape of a world snapshot (runtime/snapshot/world-snapshot.ts) as JSON
 * Schema, checked with ajv before a restore reads anything: the type of
 * every field, so no BigInt, cycle, non-finite number (ajv's strict numbers),
 * string where a count belongs or object where a field value belongs gets
 * through. The VM states inside (`spellState.vms[].state`) are checked by
 * restoreVm against vm/vm-snapshot-schema.ts, the breeds by the breeds
 * schema, the queued events by queued-events-snapshot.ts. What a schema
 * cannot say (ids unique, sizes within the embedder's limits) is checked
 * next, in world-snapshot-check.ts, before anything is allocated.
 *
 * Objects other parts of the world may grow (the top level, options,
 * entities, casts) allow fields this version does not know, and ignore them;
 * the leaves (budgets, modifiers, field values, AOI and reap entries) do not.
 */

import { Ajv, type ValidateFunction } from 'ajv';
import { DEFAULT_BUDGETS } from '../../vm/budgets.js';
import { schemaErrorMessage } from '../../vm/json-schema-error.js';
import { MAX_MODIFIERS } from '../entities/entity-state.js';
import { WorldError } from '../errors.js';
import { AOI_ENGINE_NAMES } from '../aoi/aoi-engines.js';

/** The most spell modules a snapshot may load (each is compiled and its script run under the world's fuel). */
export const MAX_SNAPSHOT_MODULES = 1_000;
/** The most slots a pool can have (world-options.ts). */
const MAX_POOL = 1 << 24;

const COUNT = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const ID = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const SLOT = { type: 'integer', minimum: 0, maximum: MAX_POOL - 1 } as const;
const NUMBER = { type: 'number' } as const;
/** A limit as JSON holds it: a number, or null for an unlimited one (Infinity). */
const LIMIT = { type: ['number', 'null'], minimum: 0 } as const;
const STRING = { type: 'string' } as const;

const strict = (properties: Record<string, object>, required: readonly string[] = Object.keys(properties)) =>
  ({ type: 'object', required, additionalProperties: false, properties }) as const;
const open = (properties: Record<string, object>, required: readonly string[] = Object.keys(properties)) =>
  ({ type: 'object', required, properties }) as const;
const triple = (a: object, b: object, c: object) => ({ type: 'array', items: [a, b, c], minItems: 3, additionalItems: false }) as const;
const pair = (a: object, b: object) => ({ type: 'array', items: [a, b], minItems: 2, additionalItems: false }) as const;

/** What an entity field may hold (entity-state.ts FieldValue, with JSON's spelling of NaN and ±Infinity). */
const FIELD_VALUE = {
  description: 'must be a field value: null, a boolean, a finite number, a string, {"entity": id} or {"number": "NaN" | "Infinity" | "-Infinity"}',
  anyOf: [
    { type: ['null', 'boolean', 'number', 'string'] },
    strict({ entity: ID }),
    strict({ number: { enum: ['NaN', 'Infinity', '-Infinity'] } }),
  ],
} as const;

const MODIFIER = strict({ stat: STRING, amount: NUMBER, expiresAt: NUMBER, seconds: { type: 'number', minimum: 0 }, seq: COUNT });

const ENTITY = open({
  slot: SLOT,
  id: ID,
  dying: { type: 'boolean' },
  baseSpeed: NUMBER,
  baseMaxHealth: NUMBER,
  baseInterest: NUMBER,
  fields: { type: 'array', items: pair(STRING, FIELD_VALUE) },
  // A spell can give an entity at most MAX_MODIFIERS buffs (world-buffs.ts): a save may not hold more.
  modifiers: { type: 'array', maxItems: MAX_MODIFIERS, items: MODIFIER },
});

const SOURCE = {
  ...open({ sourceName: STRING, source: STRING, spb: STRING }, ['sourceName']),
  description: 'must be a module: {"sourceName", "source"} or {"sourceName", "spb"}',
  anyOf: [
    { properties: { source: STRING }, required: ['source'] },
    { properties: { spb: STRING }, required: ['spb'] },
  ],
} as const;

const OPTIONS = open(
  {
    width: NUMBER,
    height: NUMBER,
    capacity: { type: 'integer', minimum: 1, maximum: MAX_POOL },
    maxCapacity: { type: 'integer', minimum: 1, maximum: MAX_POOL },
    policy: { enum: ['error', 'grow', 'recycle-oldest'] },
    partition: { enum: ['grid', 'axis'] },
    cellSize: NUMBER,
    aoi: { enum: [...AOI_ENGINE_NAMES] },
    interestShape: { enum: ['square', 'circle'] },
    maxInterest: NUMBER,
    seed: NUMBER,
    step: NUMBER,
    maxStepsPerTick: NUMBER,
    aoiMoveEvents: { type: 'boolean' },
    maxWorldHeap: LIMIT,
    maxEventsPerStep: LIMIT,
    maxHandlerCastsPerStep: LIMIT,
    maxSnapshotChars: NUMBER,
    // Every budget the VM has; one the save leaves out is the embedder's.
    budgets: strict(Object.fromEntries(Object.keys(DEFAULT_BUDGETS).map((k) => [k, LIMIT])), []),
  },
  ['width', 'height', 'budgets'],
);

const POOL = open({
  capacity: { type: 'integer', minimum: 1, maximum: MAX_POOL },
  count: COUNT,
  freeHead: { type: 'integer' },
  oldest: { type: 'integer' },
  newest: { type: 'integer' },
  arrays: { type: 'object', additionalProperties: { type: 'array', maxItems: MAX_POOL, items: NUMBER } },
});

const AOI = strict({
  observers: { type: 'array', items: strict({ key: ID, seen: { type: 'array', items: ID } }) },
  lastPositions: { type: 'array', items: triple(ID, NUMBER, NUMBER) },
});

const SPELL_STATE = open({
  vms: {
    type: 'array',
    maxItems: 2 * MAX_SNAPSHOT_MODULES,
    items: open({ spells: { type: 'integer', minimum: -1 }, retired: SOURCE, state: { type: 'object' } }, ['spells', 'state']),
  },
  casts: {
    type: 'array',
    items: open(
      {
        vm: COUNT,
        fiber: COUNT,
        spell: STRING,
        caster: { type: ['integer', 'null'], minimum: 1 },
        wakeAt: NUMBER,
        seq: COUNT,
        // The cast's handle (runtime/snapshot/cast-handle-snapshot.ts): absent in older saves.
        id: { type: ['string', 'null'], maxLength: 40 },
        target: { type: ['integer', 'null'], minimum: 1 },
        rest: { anyOf: [{ type: 'null' }, { type: 'array', maxItems: 255, items: FIELD_VALUE }] },
      },
      ['vm', 'fiber', 'spell', 'caster', 'wakeAt', 'seq'],
    ),
  },
  castNumber: COUNT,
}, ['vms', 'casts']);

export const WORLD_SNAPSHOT_SCHEMA = open(
  {
    format: { const: 'cantrip-world/2' },
    options: OPTIONS,
    time: { type: 'number', minimum: 0 },
    steps: COUNT,
    accumulator: { type: 'number', minimum: 0 },
    nextId: ID,
    random: { type: 'integer', minimum: 0, maximum: 2 ** 32 - 1 },
    castSeq: COUNT,
    breeds: {},
    spells: { type: 'array', maxItems: MAX_SNAPSHOT_MODULES, items: SOURCE },
    pool: POOL,
    entities: { type: 'array', maxItems: MAX_POOL, items: ENTITY },
    reap: { type: 'array', items: strict({ slot: SLOT, reason: { enum: ['despawned', 'killed', 'evicted', 'handed-over'] } }) },
    aoi: AOI,
    spellState: SPELL_STATE,
    queued: { type: 'array' },
    dropped: strict({ events: COUNT, casts: COUNT }),
    pendingCasts: COUNT,
    hosts: { type: 'array', items: STRING },
  },
  ['format', 'options', 'time', 'steps', 'accumulator', 'nextId', 'random', 'castSeq', 'breeds', 'spells', 'pool', 'entities', 'reap', 'aoi', 'pendingCasts'],
);

let validator: ValidateFunction | null = null;

/** Throw a WorldError naming the first field (as a JSON path) that does not fit the schema. */
export function checkWorldSnapshotShape(data: unknown): void {
  validator ??= new Ajv({ strict: true, allowUnionTypes: true, verbose: true }).compile(WORLD_SNAPSHOT_SCHEMA);
  if (!validator(data)) throw new WorldError(`The world snapshot is malformed: ${schemaErrorMessage(validator.errors, '$')}`);
}
