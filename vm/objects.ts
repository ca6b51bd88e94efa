/**
 * The objects the VM allocates. Numbers, strings, booleans and nil stay
 * plain JS values (see vm/value.ts); everything else is one of these classes.
 *
 * Fields and methods live in `Map`s, never on plain JS objects, so names such
 * as `__proto__`, `constructor` or `toString` are ordinary spell names and can
 * never reach JavaScript's own machinery.
 */

import type { FunctionProto } from './module.js';
import { fuseSuperinstructions } from './superinstructions.js';
import type { HostFunction, HostObject } from './host.js';
import type { Value, VmObject, ValueType } from './value.js';

/**
 * The VM's runtime view of a FunctionProto. `code` is what the interpreter
 * executes: normally `fast` (the module's code with superinstruction heads,
 * see vm/superinstructions.ts); the debugger swaps in a copy of `original`
 * (the module's code) with BREAKs. All three share one layout.
 */
export class ObjFunction implements VmObject {
  readonly objectType = 'function';
  code: Int32Array;
  readonly original: Int32Array;
  readonly fast: Int32Array;
  readonly lines: Int32Array;
  readonly name: string;
  readonly arity: number;
  readonly maxStack: number;
  /** Fuel charged when the function is called: its instruction count, so fuel ≈ instructions executed for straight-line code. */
  readonly callFuel: number;
  constructor(
    readonly proto: FunctionProto,
    readonly index: number,
    callFuel: number,
  ) {
    this.original = proto.code;
    this.fast = fuseSuperinstructions(proto.code);
    this.code = this.fast;
    this.lines = proto.lines;
    this.name = proto.name;
    this.arity = proto.arity;
    this.maxStack = Math.max(1, proto.maxStack);
    this.callFuel = callFuel;
  }
}

/**
 * A captured variable. While open it reads and writes `cells[index]`, where
 * `cells` is the fiber's value stack; closing points `cells` at a private
 * one-element array. Reads and writes never branch on open/closed.
 */
export class ObjUpvalue implements VmObject {
  readonly objectType = 'upvalue';
  /** Next open upvalue of the same fiber, by decreasing stack slot. */
  next: ObjUpvalue | null = null;
  constructor(
    public cells: Value[],
    public index: number,
  ) {}

  close(): void {
    this.cells = [this.cells[this.index]!];
    this.index = 0;
  }
}

export class ObjClosure implements VmObject {
  readonly objectType = 'closure';
  constructor(
    readonly fn: ObjFunction,
    readonly upvalues: ObjUpvalue[],
  ) {}
}

export class ObjClass implements VmObject {
  readonly objectType = 'class';
  readonly methods = new Map<string, ObjClosure>();
  superclass: ObjClass | null = null;
  /** Cached `init` method (clox keeps it beside the method table too). */
  initializer: ObjClosure | null = null;
  constructor(readonly name: string) {}
}

export class ObjInstance implements VmObject {
  readonly objectType = 'instance';
  readonly fields = new Map<string, Value>();
  constructor(readonly klass: ObjClass) {}
}

/** The built-in methods of lists. */
export type ListMethodName = 'append' | 'remove';

export class ObjBoundMethod implements VmObject {
  readonly objectType = 'bound method';
  constructor(
    readonly receiver: Value,
    /** A spell method, or the name of a built-in list method. */
    readonly method: ObjClosure | ListMethodName,
  ) {}
}

export class ObjList implements VmObject {
  readonly objectType = 'list';
  constructor(readonly items: Value[]) {}
}

/** Numeric codes for host parameter types, checked on every host call. */
export const ParamCheck = {
  Any: 0,
  Number: 1,
  String: 2,
  Bool: 3,
  List: 4,
  Entity: 5,
  Function: 6,
  Nil: 7,
} as const;
export type ParamCheck = (typeof ParamCheck)[keyof typeof ParamCheck];

const PARAM_CHECKS: Record<ValueType, ParamCheck> = {
  any: ParamCheck.Any,
  number: ParamCheck.Number,
  string: ParamCheck.String,
  bool: ParamCheck.Bool,
  list: ParamCheck.List,
  entity: ParamCheck.Entity,
  function: ParamCheck.Function,
  nil: ParamCheck.Nil,
};

/** A host function as a first-class spell value, with its checks precomputed. */
export class ObjHostFunction implements VmObject {
  readonly objectType = 'host function';
  readonly name: string;
  readonly minArity: number;
  readonly maxArity: number;
  readonly checks: Int32Array;
  /** True when no parameter needs a type check (all 'any'). */
  readonly unchecked: boolean;
  constructor(readonly host: HostFunction) {
    this.name = host.name;
    const max = host.params.length;
    let min = max;
    while (min > 0 && host.params[min - 1]!.optional) min--;
    this.minArity = min;
    this.maxArity = max;
    this.checks = Int32Array.from(host.params, (p) => PARAM_CHECKS[p.type] ?? ParamCheck.Any);
    this.unchecked = this.checks.every((c) => c === ParamCheck.Any);
  }
}

export function isHostObject(value: Value): value is HostObject {
  return typeof value === 'object' && value !== null && value.objectType === 'host';
}

export function isCallable(value: Value): boolean {
  return (
    value instanceof ObjClosure ||
    value instanceof ObjBoundMethod ||
    value instanceof ObjClass ||
    value instanceof ObjHostFunction
  );
}

/** Lox truthiness: only nil and false are falsey. */
export function isFalsey(value: Value): boolean {
  return value === null || value === false;
}

/** `==`: numbers and strings by value (NaN != NaN), objects by identity, host objects by `equals`. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return typeof a !== 'number' || a === a;
  return isHostObject(a) && isHostObject(b) && a.equals(b);
}

/** Whether `value` matches a host parameter type. */
export function matchesParam(check: ParamCheck, value: Value): boolean {
  switch (check) {
    case ParamCheck.Any:
      return true;
    case ParamCheck.Number:
      return typeof value === 'number';
    case ParamCheck.String:
      return typeof value === 'string';
    case ParamCheck.Bool:
      return typeof value === 'boolean';
    case ParamCheck.List:
      return value instanceof ObjList;
    case ParamCheck.Entity:
      return isHostObject(value);
    case ParamCheck.Function:
      return isCallable(value);
    case ParamCheck.Nil:
      return value === null;
    default:
      return true;
  }
}

const TYPE_NAMES: Record<ValueType, string> = {
  any: 'a value',
  number: 'a number',
  string: 'a string',
  bool: 'a boolean',
  list: 'a list',
  entity: 'an entity',
  function: 'a function',
  nil: 'nil',
};

/** "a number", "an entity" … for argument-type messages. */
export function describeType(type: ValueType): string {
  return TYPE_NAMES[type] ?? 'a value';
}
