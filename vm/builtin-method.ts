/**
 * The shape of a built-in method (`"abc".upper()`, `list.sort()`,
 * `map.keys()`): a row like a host function's — name, typed parameters,
 * return type, one line of docs — plus an implementation that receives the
 * receiver. The tables are in vm/string-methods.ts, vm/list-methods.ts and
 * vm/map-methods.ts; the VM dispatches through `methodsOf`, and the
 * playground's completion and the docs read the same rows.
 *
 * Every built-in method takes at most two arguments, so the VM passes them
 * in place (no argument array per call); a missing optional one is
 * `undefined`. Work that grows with the input is charged through the
 * context (fuel, heap), as host functions do.
 */

import { HEAP_COST } from './costs.js';
import { HostError } from './errors.js';
import { hostArity, type HostContext, type HostFunctionSpec } from './host.js';
import { ParamCheck, paramCheckOf } from './objects.js';
import type { Value } from './value.js';

export interface BuiltinMethod<Self = Value> extends HostFunctionSpec {
  readonly impl: (ctx: HostContext, self: Self, a: Value | undefined, b: Value | undefined) => Value;
}

/** A row with its accepted argument counts and type checks worked out once (the VM checks them on every call). */
export interface MethodRow<Self = Value> extends BuiltinMethod<Self> {
  readonly minArity: number;
  readonly maxArity: number;
  /** The check of each parameter (vm/objects.ts ParamCheck), by position. */
  readonly checks: readonly ParamCheck[];
  /** No parameter needs a type check (all 'any'). */
  readonly unchecked: boolean;
}

/** A method table, by name (a Map, so `constructor` or `__proto__` are never found by accident). */
export type MethodTable<Self = Value> = ReadonlyMap<string, MethodRow<Self>>;

export function methodTable<Self>(rows: readonly BuiltinMethod<Self>[]): MethodTable<Self> {
  return new Map(rows.map((row) => [row.name, methodRow(row)]));
}

function methodRow<Self>(row: BuiltinMethod<Self>): MethodRow<Self> {
  const { min, max } = hostArity(row);
  const checks = row.params.map((param) => paramCheckOf(param.type));
  return { ...row, minArity: min, maxArity: max, checks, unchecked: checks.every((check) => check === ParamCheck.Any) };
}

/** A method without arguments (`"a".upper()`, `m.keys()`). */
export function withoutArguments<Self>(
  name: string,
  returns: BuiltinMethod['returns'],
  doc: string,
  impl: (ctx: HostContext, self: Self) => Value,
): BuiltinMethod<Self> {
  return { name, params: [], returns, doc, impl };
}

/** The most arguments any built-in method takes. */
export const MAX_METHOD_ARGS = 2;

/** A whole number, or a HostError naming the method and what it wanted. */
export function wholeNumber(value: Value | undefined, method: string, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new HostError(`${method}() ${what} must be a whole number.`);
  return value;
}

/** The parameters of every `slice` method (strings, lists): the bounds sliceBounds reads. */
export const SLICE_PARAMS = [
  { name: 'start', type: 'number', doc: 'first index; negative counts from the end' },
  { name: 'end', type: 'number', optional: true, doc: 'index after the last; default the length' },
] as const;

/** `start`/`end` of a slice, as JavaScript's slice reads them: negative counts from the end, clamped to [0, length]. */
export function sliceBounds(length: number, start: Value | undefined, end: Value | undefined, method: string): [number, number] {
  const from = clampIndex(wholeNumber(start, method, 'start'), length);
  const to = end === undefined || end === null ? length : clampIndex(wholeNumber(end, method, 'end'), length);
  return [from, Math.max(from, to)];
}

function clampIndex(index: number, length: number): number {
  if (index < 0) return Math.max(0, length + index);
  return Math.min(index, length);
}

/** Charge fuel for scanning `units` elements or characters (at least one unit per call). */
export function chargeWork(ctx: HostContext, units: number): void {
  ctx.chargeFuel(1 + units);
}

/** Charge fuel and heap for creating `units` characters (a new string) or elements added to a list. */
export function chargeAllocation(ctx: HostContext, units: number): void {
  ctx.chargeFuel(1 + units);
  ctx.chargeHeap(units);
}

/** Charge fuel and heap for a new list of `elements` (the list object, by HEAP_COST, and one unit each). */
export function chargeNewList(ctx: HostContext, elements: number): void {
  ctx.chargeFuel(1 + elements);
  ctx.chargeHeap(HEAP_COST.list + elements);
}
