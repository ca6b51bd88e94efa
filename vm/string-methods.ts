/**
 * Methods of strings: `"Troll".upper()`, `name.split(",")` … Strings are
 * immutable; every method returns a new value. Each charges fuel for the
 * characters it reads (before reading them, so a megabyte string cannot run
 * past the budget) and heap for the characters it creates. Searches run in
 * time linear in the lengths they are charged (vm/text-search.ts). Indexes
 * count UTF-16 code units, as `len()` does.
 */

import { chargeAllocation, chargeNewList, chargeWork, methodTable, sliceBounds, SLICE_PARAMS, withoutArguments, type BuiltinMethod } from './builtin-method.js';
import type { HostContext } from './host.js';
import { findText, splitText } from './text-search.js';
import { ObjList } from './objects.js';
import type { Value } from './value.js';

function text(value: Value | undefined): string {
  return value as string;
}

/** A new string the spell keeps: fuel and heap by its length. */
function made(ctx: HostContext, result: string): string {
  ctx.chargeHeap(result.length);
  return result;
}

/** A method making a new string of the same characters changed (`upper`): it reads the string and keeps the result. */
function recased(name: string, doc: string, change: (self: string) => string): BuiltinMethod<string> {
  return withoutArguments(name, 'string', doc, (ctx, self: string) => {
    chargeWork(ctx, self.length);
    return made(ctx, change(self));
  });
}

/**
 * A method looking for a string in the string (`contains`): it reads the
 * argument, and the whole string too when `readsAll` (a search anywhere,
 * where `startsWith` compares only the argument's length).
 */
function search(
  name: string,
  param: string,
  returns: 'bool' | 'number',
  doc: string,
  readsAll: boolean,
  find: (self: string, part: string) => Value,
): BuiltinMethod<string> {
  return {
    name,
    params: [{ name: param, type: 'string' }],
    returns,
    doc,
    impl: (ctx, self, part) => {
      chargeWork(ctx, (readsAll ? self.length : 0) + text(part).length);
      return find(self, text(part));
    },
  };
}

const STRING_METHODS: readonly BuiltinMethod<string>[] = [
  recased('upper', 'The string in upper case.', (self) => self.toUpperCase()),
  recased('lower', 'The string in lower case.', (self) => self.toLowerCase()),
  recased('trim', 'The string without leading and trailing spaces, tabs and newlines.', (self) => self.trim()),
  search('contains', 'part', 'bool', 'Whether part occurs in the string.', true, (self, part) => findText(self, part) >= 0),
  search('startsWith', 'prefix', 'bool', 'Whether the string begins with prefix.', false, (self, prefix) => self.startsWith(prefix)),
  search('endsWith', 'suffix', 'bool', 'Whether the string ends with suffix.', false, (self, suffix) => self.endsWith(suffix)),
  search('indexOf', 'part', 'number', 'Where part first occurs in the string, or -1.', true, (self, part) => findText(self, part)),
  {
    name: 'slice',
    params: SLICE_PARAMS,
    returns: 'string',
    doc: 'The characters from start up to (not including) end.',
    impl: (ctx, self, start, end) => {
      const [from, to] = sliceBounds(self.length, start, end, 'slice');
      chargeAllocation(ctx, to - from);
      return self.slice(from, to);
    },
  },
  {
    name: 'split',
    params: [{ name: 'separator', type: 'string', doc: '"" splits into single characters' }],
    returns: 'list',
    doc: 'The parts of the string between separators, as a list of strings.',
    impl: (ctx, self, separator) => {
      const sep = text(separator);
      // Reading the string (and the separator) is the work; the parts hold its characters again, plus one element each.
      chargeWork(ctx, self.length + sep.length);
      const parts = splitText(self, sep);
      chargeNewList(ctx, parts.length);
      chargeAllocation(ctx, self.length);
      return new ObjList(parts);
    },
  },
];

export const STRING_METHOD_TABLE = methodTable(STRING_METHODS);
