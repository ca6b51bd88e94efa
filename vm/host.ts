/**
 * The host API contract: how an embedder (or the game runtime) exposes
 * functions and objects to spells. The specs are plain data so the compiler
 * can check calls, the playground can complete and document them, and the
 * docs can be generated from one table.
 */

import type { Fiber } from './fiber.js';
import type { ObjList } from './objects.js';
import type { HostObject, Value, ValueType, VmObject } from './value.js';

export interface HostParam {
  readonly name: string;
  readonly type: ValueType;
  /** Optional trailing parameters make a range of accepted arities. */
  readonly optional?: boolean;
  readonly doc?: string;
}

/** What the compiler and tools know about a host function. */
export interface HostFunctionSpec {
  readonly name: string;
  readonly params: readonly HostParam[];
  readonly returns: ValueType;
  /** One line, shown in hover and in generated docs. */
  readonly doc: string;
  /**
   * Fuel one call costs on top of its instruction, for a host whose fixed work is large
   * (spawning allocates an entity, indexes it and queues an event). Default 0. Work that grows
   * with the input is charged by the implementation (HostContext.chargeFuel); string arguments
   * are charged by the VM, 1 per character (docs/security.md, the accounting rules).
   */
  readonly fuel?: number;
}

/**
 * What a host function may do to the VM while it runs. The context object is
 * reused between calls; do not keep it.
 */
export interface HostContext {
  /** Suspend the calling fiber once the host function returns; the embedder resumes it later (vm.resume). */
  suspend(): void;
  /** Charge fuel for work the host function does (e.g. per element returned). Throws a budget error when exhausted. */
  chargeFuel(amount: number): void;
  /** Fuel the cast has left (Infinity when unlimited): a host function can bound its work by it. */
  readonly remainingFuel: number;
  /** Charge the cast's heap budget (list elements, string characters). Throws a budget error when exhausted. */
  chargeHeap(amount: number): void;
  /** Charge the cast's output budget for text the host function sends out (say, sound …). Throws a budget error when exhausted. */
  chargeOutput(chars: number): void;
  /** Refuse (with a 'wait' budget error) a wait longer than the cast's maxWait budget; the runtime's `wait` calls it before suspending. */
  checkWait(seconds: number): void;
  /** The cast's longest allowed wait, in seconds. */
  readonly maxWait: number;
  /** Create a spell list value from JS values. Charges the heap budget. */
  makeList(items: readonly Value[]): Value;
  /** The fiber that is calling (set for the whole of every host call). */
  readonly fiber: Fiber | null;
  /** Source line of the call, for messages. */
  readonly line: number;
  /**
   * What the embedder runs the calling fiber for — a World's cast (its spell,
   * caster and wake time) — as it set it on the VM (`vm.hostCast`) around the
   * run; null for a VM nobody set it on. The VM only carries it.
   */
  readonly cast: unknown;
}

/** A host function's implementation: receives the context and the arguments, already checked against the spec's types. */
export type HostImplementation = (ctx: HostContext, ...args: Value[]) => Value;

export interface HostFunction extends HostFunctionSpec {
  readonly impl: HostImplementation;
}

/**
 * The JS value an argument of a declared type arrives as (the VM checks it
 * before the implementation runs): 'number' → number, 'entity' → the host's
 * entity object (`E`: HostObject for a bare VM, EntityRef in a World), etc.
 */
export type HostArg<T extends ValueType, E = HostObject> = T extends 'number'
  ? number
  : T extends 'string'
    ? string
    : T extends 'bool'
      ? boolean
      : T extends 'list'
        ? ObjList
        : T extends 'entity'
          ? E
          : T extends 'function'
            ? VmObject
            : T extends 'nil'
              ? null
              : Value;

/** An optional parameter the spell left out arrives as `undefined`. */
type ArgOf<P, E> = P extends { readonly type: infer T extends ValueType; readonly optional: true } ? HostArg<T, E> | undefined : P extends { readonly type: infer T extends ValueType } ? HostArg<T, E> : Value;

/** The implementation's argument list for a parameter list: one typed argument per declared parameter. */
export type HostArgs<P extends readonly HostParam[], E = HostObject> = { -readonly [K in keyof P]: ArgOf<P[K], E> };

/** What an implementation may return for a declared return type (nil is always allowed). */
export type HostReturn<R extends ValueType, E = HostObject> = R extends 'any' ? Value : HostArg<R, E> | null;

/**
 * A host function written with typed arguments: what `hostFunction()` takes.
 * Every field of the spec (`name`, `doc`, `fuel` …) as the spec defines it;
 * `params` and `returns` kept literal, to type `impl`.
 */
export interface TypedHostFunction<P extends readonly HostParam[], R extends ValueType, C extends HostContext = HostContext, E = HostObject>
  extends Omit<HostFunctionSpec, 'params' | 'returns'> {
  readonly params: P;
  readonly returns: R;
  readonly impl: (ctx: C, ...args: HostArgs<P, E>) => HostReturn<R, E>;
}

/**
 * Declare a host function with typed arguments: the parameter declarations
 * type the implementation's arguments (`{ name: 'n', type: 'number' }` → `n:
 * number`; an optional one → `number | undefined`). The VM checks each
 * argument against its declared type before calling the implementation, so
 * the types hold at run time.
 *
 *   const shout = hostFunction({
 *     name: 'shout', params: [{ name: 'text', type: 'string' }], returns: 'nil',
 *     doc: 'Shout a line.', impl: (ctx, text) => { log(text.toUpperCase()); return null; },
 *   });
 */
export function hostFunction<const P extends readonly HostParam[], const R extends ValueType>(def: TypedHostFunction<P, R>): HostFunction {
  // Sound because the VM checks every argument against `params` before `impl` runs.
  return def as unknown as HostFunction;
}


/** Accepted argument counts of a host function. */
export function hostArity(spec: HostFunctionSpec): { min: number; max: number } {
  const max = spec.params.length;
  let min = max;
  while (min > 0 && spec.params[min - 1]!.optional) min--;
  return { min, max };
}

/**
 * The wrong-arity message for a host function, at compile time and at run
 * time alike: "damage() expects 2 arguments (target, amount) but got 1." —
 * it names the parameters, so the fix is obvious.
 */
export function hostArityMessage(spec: HostFunctionSpec, argc: number): string {
  const { min, max } = hostArity(spec);
  const expected = min === max ? `${min}` : `${min} to ${max}`;
  const noun = max === 1 ? 'argument' : 'arguments';
  const params = spec.params.map((p) => (p.optional ? `${p.name}?` : p.name)).join(', ');
  return `${spec.name}() expects ${expected} ${noun}${params === '' ? '' : ` (${params})`} but got ${argc}.`;
}
