/**
 * The shape of a VM snapshot (vm/fiber-snapshot.ts, vm/heap-snapshot.ts) as
 * JSON Schema, checked with ajv before anything is read from it: the type of
 * every field, so that what follows never meets a BigInt, a cycle, a string
 * where a count belongs or a number that is not finite (ajv's strict numbers).
 * What a schema cannot say — references that name the right kind of object,
 * counts that fit the module and the budgets, frames that fit the verifier —
 * the readers check next, before they allocate.
 */

import { Ajv, type ValidateFunction } from 'ajv';
import { DEFAULT_BUDGETS } from './budgets.js';
import { VerifyError } from './errors.js';
import { schemaErrorMessage } from './json-schema-error.js';

/** The most objects a snapshot's heap may hold. */
export const MAX_SNAPSHOT_OBJECTS = 1_000_000;
/** The most arguments the VM's entry trampolines take (CALL's operand). */
export const MAX_TRAMPOLINE_ARGC = 255;
/** The most upvalues a function captures (the verifier's limit). */
const MAX_UPVALUES = 256;

const COUNT = { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1 } as const;
const REF = { type: 'integer', minimum: 0, maximum: MAX_SNAPSHOT_OBJECTS - 1 } as const;
const NAME = { type: 'string' } as const;

const VALUE = {
  description: 'must be a value: null, a boolean, a finite number, a string, {"n": "NaN" | "Infinity" | "-Infinity" | "-0"}, {"r": object index} or {"u": 1}',
  anyOf: [
    { type: ['null', 'boolean', 'number', 'string'] },
    { type: 'object', required: ['n'], additionalProperties: false, properties: { n: { enum: ['NaN', 'Infinity', '-Infinity', '-0'] } } },
    { type: 'object', required: ['r'], additionalProperties: false, properties: { r: REF } },
    { type: 'object', required: ['u'], additionalProperties: false, properties: { u: { const: 1 } } },
  ],
} as const;

/** A JSON array of exactly two items (draft-07 tuple). */
const pair = (first: object, second: object) => ({ type: 'array', items: [first, second], minItems: 2, additionalItems: false }) as const;

/** One kind of heap object: its tag `t` and fields. */
const kind = (t: string, properties: Record<string, object>, required: readonly string[]) =>
  ({ type: 'object', required: ['t', ...required], additionalProperties: false, properties: { t: { const: t }, ...properties } }) as const;

const OBJECT = {
  type: 'object',
  required: ['t'],
  properties: { t: { type: 'string' } },
  discriminator: { propertyName: 't' },
  oneOf: [
    kind('closure', { fn: { type: 'integer', minimum: -1 }, argc: { type: 'integer', minimum: 0, maximum: MAX_TRAMPOLINE_ARGC }, up: { type: 'array', maxItems: MAX_UPVALUES, items: REF } }, ['fn', 'up']),
    kind('upvalue', { v: VALUE, fiber: COUNT, slot: COUNT }, []),
    kind('class', { name: NAME, sup: { type: ['integer', 'null'], minimum: 0 }, methods: { type: 'array', items: pair(NAME, REF) } }, ['name', 'sup', 'methods']),
    kind('instance', { cls: REF, fields: { type: 'array', items: pair(NAME, VALUE) } }, ['cls', 'fields']),
    kind('list', { items: { type: 'array', items: VALUE } }, ['items']),
    kind('map', { entries: { type: 'array', items: pair(VALUE, VALUE) } }, ['entries']),
    kind('bound', { recv: VALUE, method: { type: ['integer', 'string'], minimum: 0 } }, ['recv', 'method']),
    kind('host', { name: NAME }, ['name']),
    kind('object', { data: {} }, ['data']),
  ],
} as const;

/** A budget as a snapshot holds it: a number ≥ 0, or null for unlimited (JSON has no Infinity). */
const BUDGET = { type: ['number', 'null'], minimum: 0 } as const;

const FIBER = {
  type: 'object',
  required: ['spell', 'runKind', 'budgets', 'fuel', 'heapUsed', 'stack', 'frames', 'open'],
  additionalProperties: false,
  properties: {
    spell: { type: ['string', 'null'] },
    runKind: { enum: ['cast', 'call', 'script'] },
    // Every budget the VM has (a budget added later is known here at once); one a snapshot leaves out is the restoring VM's.
    budgets: { type: 'object', additionalProperties: false, properties: Object.fromEntries(Object.keys(DEFAULT_BUDGETS).map((k) => [k, BUDGET])) },
    fuel: BUDGET,
    heapUsed: { type: 'number', minimum: 0 },
    retained: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    stack: { type: 'array', items: VALUE },
    frames: { type: 'array', minItems: 2, items: { type: 'object', required: ['closure', 'ip', 'base'], additionalProperties: false, properties: { closure: REF, ip: COUNT, base: COUNT } } },
    open: { type: 'array', items: REF },
  },
} as const;

export const VM_SNAPSHOT_SCHEMA = {
  type: 'object',
  required: ['format', 'version', 'globals', 'objects', 'fibers'],
  additionalProperties: false,
  properties: {
    format: { const: 'cantrip-vm' },
    version: { const: 1 },
    globals: { type: 'array', items: VALUE },
    objects: { type: 'array', maxItems: MAX_SNAPSHOT_OBJECTS, items: OBJECT },
    fibers: { type: 'array', items: FIBER },
  },
} as const;

let validator: ValidateFunction | null = null;

/** Throw a VerifyError naming the first field (as a JSON path under `root`) that does not fit the schema. */
export function checkVmSnapshotShape(data: unknown, root: string): void {
  validator ??= new Ajv({ strict: true, allowUnionTypes: true, discriminator: true, verbose: true }).compile(VM_SNAPSHOT_SCHEMA);
  if (!validator(data)) throw new VerifyError(`Snapshot: ${schemaErrorMessage(validator.errors, root)}`);
}
