/**
 * Methods of maps: `m.has(k)`, `m.remove(k)`, `m.keys()`, `m.values()`,
 * `m.get(k, default)`. A missing key is an error wherever a key is read
 * (`m[k]`, `remove`), as a missing property is; `has` asks first and `get`
 * reads with a fallback (docs/decisions.md says why).
 */

import { chargeNewList, methodTable, withoutArguments, type BuiltinMethod } from './builtin-method.js';
import { displayBounded } from './display.js';
import { HostError } from './errors.js';
import { ObjMap, mapKeyProblem } from './map-object.js';
import { ObjList } from './objects.js';
import type { Value } from './value.js';

/** A usable key, or the HostError saying why not. */
export function checkMapKey(key: Value | undefined): Value {
  const k = key ?? null;
  const problem = mapKeyProblem(k);
  if (problem !== null) throw new HostError(problem);
  return k;
}

/** "Undefined key 'fire'." — strings quoted, so "1" and 1 read differently; long keys cut short. */
export function missingKeyMessage(key: Value): string {
  const shown = typeof key === 'string' ? `'${shorten(key)}'` : shorten(displayBounded(key, 200) ?? '');
  return `Undefined key ${shown}.`;
}

function shorten(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 40)}…`;
}

/** A method returning a new list of one value per entry (`keys`). */
function listOf(name: string, doc: string, items: (self: ObjMap) => Value[]): BuiltinMethod<ObjMap> {
  return withoutArguments(name, 'list', doc, (ctx, self: ObjMap) => {
    chargeNewList(ctx, self.size);
    return new ObjList(items(self));
  });
}

const MAP_METHODS: readonly BuiltinMethod<ObjMap>[] = [
  {
    name: 'has',
    params: [{ name: 'key', type: 'any' }],
    returns: 'bool',
    doc: 'Whether the map has an entry for key.',
    impl: (_ctx, self, key) => self.has(checkMapKey(key)),
  },
  {
    name: 'get',
    params: [
      { name: 'key', type: 'any' },
      { name: 'default', type: 'any', optional: true, doc: 'returned when the key is missing; default nil' },
    ],
    returns: 'any',
    doc: 'The value for key, or default when the map has no such key.',
    impl: (_ctx, self, key, fallback) => self.get(checkMapKey(key)) ?? fallback ?? null,
  },
  {
    name: 'remove',
    params: [{ name: 'key', type: 'any' }],
    returns: 'any',
    doc: 'Removes the entry for key and returns its value (an error if there is none).',
    impl: (_ctx, self, key) => {
      const k = checkMapKey(key);
      const value = self.delete(k);
      if (value === undefined) throw new HostError(missingKeyMessage(k));
      return value;
    },
  },
  listOf('keys', 'A new list of the keys, in the order they were first added.', (self) => self.keys()),
  listOf('values', 'A new list of the values, in the order of their keys.', (self) => self.values()),
];

export const MAP_METHOD_TABLE = methodTable(MAP_METHODS);

/**
 * The map methods spells call in their loops — `get`, `has` and `remove` with
 * a string or number key — done directly: with such a key none of them can
 * fail (but `remove` of a missing key) or charge anything, so the table's
 * lookup and checks would only cost time. Returns undefined when the call
 * needs the table (another method, another key, a wrong argument count, a
 * missing key to remove): the table then gives the result or the error.
 */
export function quickMapMethod(map: ObjMap, name: string, argc: number, key: Value | undefined, fallback: Value | undefined): Value | undefined {
  switch (name) {
    case 'get':
      return quickMapGet(map, argc, key, fallback);
    case 'has':
      return quickMapHas(map, argc, key);
    case 'remove':
      return quickMapRemove(map, argc, key);
    default:
      return undefined;
  }
}

/**
 * The quick methods one by one, for a call site whose method is known when its
 * code is written (compiled code: the name's constant picks the helper,
 * vm/compiled/function-source.ts, quickMapMethods), so the name is not
 * tested at run time; quickMapMethod's results exactly.
 */
export const QUICK_MAP_METHODS = ['get', 'has', 'remove'] as const;

/** A key the quick methods take: a string, or a number but nan (the map's own methods refuse nan, with their message). */
function isQuickKey(key: Value | undefined): key is string | number {
  return typeof key === 'string' || (typeof key === 'number' && key === key);
}

// get and has read the entry first: a found value is the answer whatever the key's type (a JS Map holds
// string, number and boolean keys as themselves; never nan, which every way in refuses, nor an entity,
// which is under its token), so a hit costs no test of the key. Only a miss asks whether the key was one
// the quick road may answer for.
export function quickMapGet(map: ObjMap, argc: number, key: Value | undefined, fallback: Value | undefined): Value | undefined {
  if (argc > 2) return undefined;
  const found = map.lookup(key!);
  if (found !== undefined) return found;
  return isQuickKey(key) ? (argc === 2 ? fallback! : null) : undefined;
}

export function quickMapHas(map: ObjMap, argc: number, key: Value | undefined): Value | undefined {
  if (argc !== 1) return undefined;
  if (map.lookup(key!) !== undefined) return true;
  return isQuickKey(key) ? false : undefined;
}

export function quickMapRemove(map: ObjMap, argc: number, key: Value | undefined): Value | undefined {
  if (argc !== 1 || !isQuickKey(key)) return undefined;
  return map.delete(key);
}
