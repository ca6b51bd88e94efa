/**
 * Which built-in methods a value has, and calling one with its checks:
 * the hook the VM calls for `receiver.name(args)` and `receiver.name` on
 * strings, lists and maps (instances and entities have their own paths).
 */

import type { BuiltinMethod, MethodRow, MethodTable } from './builtin-method.js';
import { HostError } from './errors.js';
import type { HostContext } from './host.js';
import { LIST_METHOD_TABLE } from './list-methods.js';
import { ObjMap } from './map-object.js';
import { MAP_METHOD_TABLE } from './map-methods.js';
import { ObjList, describeType, matchesParam } from './objects.js';
import { STRING_METHOD_TABLE } from './string-methods.js';
import type { Value } from './value.js';

/** The method table for a receiver, or null when the value has no built-in methods. */
export function methodsOf(receiver: Value): MethodTable<never> | null {
  if (typeof receiver === 'string') return STRING_METHOD_TABLE as MethodTable<never>;
  if (receiver instanceof ObjList) return LIST_METHOD_TABLE as MethodTable<never>;
  if (receiver instanceof ObjMap) return MAP_METHOD_TABLE as MethodTable<never>;
  return null;
}

/** The built-in method `name` of `receiver`, or undefined. */
export function findMethod(receiver: Value, name: string): MethodRow<never> | undefined {
  return methodsOf(receiver)?.get(name);
}

/**
 * Call a built-in method: arity in clox's wording ("Expected 1 arguments but
 * got 0."), argument types as host calls word them, then the implementation.
 */
export function callMethod(
  ctx: HostContext,
  method: MethodRow<never>,
  receiver: Value,
  argc: number,
  a: Value | undefined,
  b: Value | undefined,
): Value {
  const min = method.minArity;
  const max = method.maxArity;
  if (argc < min || argc > max) {
    const expected = min === max ? `${max}` : `${min} to ${max}`;
    throw new HostError(`Expected ${expected} arguments but got ${argc}.`);
  }
  if (!method.unchecked) {
    const checks = method.checks;
    for (let i = 0; i < argc; i++) {
      if (!matchesParam(checks[i]!, i === 0 ? a! : b!)) {
        throw new HostError(`Argument ${i + 1} of ${method.name}() must be ${describeType(method.params[i]!.type)}.`);
      }
    }
  }
  return (method as unknown as BuiltinMethod<Value>).impl(ctx, receiver, a, b);
}

/** Every built-in method, by receiver type: for completion and the generated docs. */
export const BUILTIN_METHODS: Readonly<Record<'string' | 'list' | 'map', readonly BuiltinMethod<never>[]>> = {
  string: [...STRING_METHOD_TABLE.values()] as BuiltinMethod<never>[],
  list: [...LIST_METHOD_TABLE.values()] as BuiltinMethod<never>[],
  map: [...MAP_METHOD_TABLE.values()] as BuiltinMethod<never>[],
};
