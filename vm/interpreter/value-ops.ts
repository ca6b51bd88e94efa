/** The slow paths of the instructions on values: fields, indexes, map entries, strings, host results. */

import { quoted } from '../bounded-text.js';
import { ObjMap, mapKeyProblem } from '../map-object.js';
import { missingKeyMessage } from '../map-methods.js';
import { methodsOf } from '../method-dispatch.js';
import { ObjBoundMethod, ObjInstance, isHostObject, type ObjClass, type ObjFunction, type ObjList } from '../objects.js';
import type { HostObject, Value, VmObject } from '../value.js';
import { Fault, hostFault } from './fault.js';

/** The value of a global slot that was never defined. */
export const UNDEFINED: VmObject = Object.freeze({ objectType: 'undefined' });

/**
 * Counts the changes to any class's methods (METHOD, INHERIT), process-wide: SUPER_INVOKE's inline
 * cache holds a superclass's method while this count is what it was when the cache was filled.
 */
export const methodTables = { changes: 0 };

/** A class's method table changed (METHOD, INHERIT): every SUPER_INVOKE cache is stale. */
export function methodsChanged(): void {
  methodTables.changes = (methodTables.changes + 1) | 0;
}

/** INHERIT: copy the superclass's methods down (clox), so lookups never walk the chain. */
export function inherit(subclass: ObjClass, superclass: ObjClass): void {
  methodsChanged();
  for (const [name, method] of superclass.methods) subclass.methods.set(name, method);
  subclass.superclass = superclass;
  subclass.initializer = superclass.initializer;
}

/** A valid list index, or a Fault explaining why not. */
export function checkIndex(list: ObjList, index: Value): number {
  if (typeof index !== 'number') throw new Fault('List index must be a number.');
  if (!Number.isInteger(index)) throw new Fault('List index must be a whole number.');
  if (index < 0 || index >= list.items.length) throw new Fault('List index out of range.');
  return index;
}

function indexError(_value: Value): never {
  throw new Fault('Only lists and maps can be indexed.');
}

/** `map[key]`: the value, or a Fault naming the missing key (docs/decisions.md: why not nil). */
export function getMapEntry(map: Value, key: Value): Value {
  if (!(map instanceof ObjMap)) indexError(map);
  const value = map.get(key);
  if (value !== undefined) return value;
  const problem = mapKeyProblem(key);
  throw new Fault(problem ?? missingKeyMessage(key));
}

/** `map[key] = value` (and map literals): true when the key is new (one more entry of heap). */
export function setMapEntry(map: Value, key: Value, value: Value): boolean {
  if (!(map instanceof ObjMap)) indexError(map);
  const problem = mapKeyProblem(key);
  if (problem !== null) throw new Fault(problem);
  return map.set(key, value);
}

/** GET_PROPERTY on an instance, missing the inline cache: look up, then cache a field hit. */
export function getInstanceProperty(fn: ObjFunction, at: number, object: ObjInstance, name: string): Value {
  const shape = object.shape;
  if (!object.isDictionary) {
    const slot = shape.slotOf(name);
    if (slot >= 0) {
      fn.icShape[at] = shape;
      fn.icSlot[at] = slot;
      return object.values[slot]!;
    }
  } else {
    const field = object.getField(name);
    if (field !== undefined) return field;
  }
  const method = object.klass.methods.get(name);
  if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
  return new ObjBoundMethod(object, method);
}

/**
 * SET_PROPERTY missing the inline cache: store, then cache the (shape, slot, next shape) it took.
 * Returns the cost of the store (ObjInstance.setField): 0 for an existing field.
 */
export function setProperty(fn: ObjFunction, at: number, object: Value, name: string, value: Value): number {
  if (!(object instanceof ObjInstance)) {
    setOtherProperty(object, name, value);
    return 0;
  }
  const before = object.shape;
  const cost = object.setField(name, value);
  if (object.isDictionary) return cost;
  fn.icShape[at] = before;
  fn.icSlot[at] = before.slotOf(name) >= 0 ? before.slotOf(name) : object.shape.slotOf(name);
  fn.icNext[at] = object.shape;
  return cost;
}

export function getOtherProperty(object: Value, name: string): Value {
  if (isHostObject(object)) {
    let value: Value | undefined;
    try {
      value = object.getProperty(name);
    } catch (error) {
      throw hostFault(error, `Property '${name}' of ${object.hostType} failed`);
    }
    if (value === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
    return checkHostResult(value, name);
  }
  const methods = methodsOf(object);
  if (methods !== null) {
    const method = methods.get(name);
    if (method !== undefined) return new ObjBoundMethod(object, method);
    throw new Fault(noSuchMethod(object, name, 'properties'));
  }
  throw new Fault('Only instances have properties.');
}

/**
 * An unknown name on a string keeps the book's message ("Only instances have
 * properties.": Lox's field/get_on_string test); lists and maps say which name.
 */
export function noSuchMethod(receiver: Value, name: string, what: 'methods' | 'properties'): string {
  return typeof receiver === 'string' ? `Only instances have ${what}.` : `Undefined property ${quoted(name)}.`;
}

function setOtherProperty(object: Value, name: string, value: Value): void {
  if (!isHostObject(object)) throw new Fault('Only instances have fields.');
  try {
    object.setProperty(name, value);
  } catch (error) {
    throw hostFault(error, `Property '${name}' of ${object.hostType} failed`);
  }
}

/**
 * `a + b` for strings. V8 makes a rope (ConsString) of any result of 13 characters or more, and
 * comparing a rope calls into the runtime every time (string_equality ran 4-8x slower than Lua's
 * interned strings). Short results are flattened once here instead; long ones stay ropes, so
 * building a long string piece by piece stays linear.
 */
export function concatStrings(a: string, b: string): string {
  const s = a + b;
  // Reading a rope as a number flattens it in place; the store keeps the optimizer from dropping it.
  if (s.length <= FLAT_CONCAT_LIMIT) flattenSink = Number(s);
  return s;
}

const FLAT_CONCAT_LIMIT = 256;

let flattenSink = 0;

export function hostEquals(a: HostObject, b: HostObject): boolean {
  try {
    return a.equals(b) === true;
  } catch (error) {
    throw hostFault(error, `Comparing ${a.hostType} failed`);
  }
}

/** Host functions must return spell values; `undefined` means nil. Anything else JS-only is refused. */
export function checkHostResult(result: Value | undefined, name: string): Value {
  if (result === undefined || result === null) return null;
  const type = typeof result;
  if (type === 'number' || type === 'string' || type === 'boolean') return result;
  if (type === 'object' && typeof (result as VmObject).objectType === 'string') return result;
  throw new Fault(`Host function '${name}' returned a value spells cannot use.`);
}

/**
 * A module's constants with every string replaced by V8's internalized copy
 * (done once per constants table). The compiler cuts string literals out of
 * the source, and V8 keeps such a cut (13+ characters) as a SlicedString
 * into the whole text: comparing one with a built string left optimized code
 * for the runtime each time (string_equality's `a3 == "abc…3"` was a third
 * of its time). An internalized string is flat, and a method or property
 * name then matches the built-in tables' names by pointer.
 */
export function flatConstants(constants: readonly (number | string)[]): readonly (number | string)[] {
  let flat = FLAT_CONSTANTS.get(constants);
  if (flat === undefined) {
    flat = constants.map((c) => (typeof c === 'string' ? internalized(c) : c));
    FLAT_CONSTANTS.set(constants, flat);
  }
  return flat;
}

/** The same text as V8's internalized string (property keys are internalized; an index-like key comes back as an equal string). */
function internalized(text: string): string {
  for (const key in { [text]: 0 }) return key;
  return text;
}

const FLAT_CONSTANTS = new WeakMap<readonly (number | string)[], readonly (number | string)[]>();
