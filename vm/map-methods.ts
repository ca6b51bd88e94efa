/**
 * Methods of maps: `m.has(k)`, `m.remove(k)`, `m.keys()`, `m.values()`,
 * `m.get(k, default)`. A missing key is an error wherever a key is read
 * (`m[k]`, `remove`), as a missing property is; `has` asks first and `get`
 * reads with a fallback (docs/decisions.md says why).
 */

import { chargeNewList, methodTable, type BuiltinMethod } from './builtin-method.js';
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
  {
    name: 'keys',
    params: [],
    returns: 'list',
    doc: 'A new list of the keys, in the order they were first added.',
    impl: (ctx, self) => {
      chargeNewList(ctx, self.size);
      return new ObjList(self.keys());
    },
  },
  {
    name: 'values',
    params: [],
    returns: 'list',
    doc: 'A new list of the values, in the order of their keys.',
    impl: (ctx, self) => {
      chargeNewList(ctx, self.size);
      return new ObjList(self.values());
    },
  },
];

export const MAP_METHOD_TABLE = methodTable(MAP_METHODS);
