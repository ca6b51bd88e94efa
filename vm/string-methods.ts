/**
 * Methods of strings: `"Troll".upper()`, `name.split(",")` … Strings are
 * immutable; every method returns a new value. Each charges fuel for the
 * characters it reads (before reading them, so a megabyte string cannot run
 * past the budget) and heap for the characters it creates. Searches run in
 * time linear in the lengths they are charged (vm/text-search.ts). Indexes
 * count UTF-16 code units, as `len()` does.
 */

import { chargeAllocation, chargeNewList, chargeWork, methodTable, sliceBounds, SLICE_PARAMS, type BuiltinMethod } from './builtin-method.js';
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

const STRING_METHODS: readonly BuiltinMethod<string>[] = [
  {
    name: 'upper',
    params: [],
    returns: 'string',
    doc: 'The string in upper case.',
    impl: (ctx, self) => {
      chargeWork(ctx, self.length);
      return made(ctx, self.toUpperCase());
    },
  },
  {
    name: 'lower',
    params: [],
    returns: 'string',
    doc: 'The string in lower case.',
    impl: (ctx, self) => {
      chargeWork(ctx, self.length);
      return made(ctx, self.toLowerCase());
    },
  },
  {
    name: 'trim',
    params: [],
    returns: 'string',
    doc: 'The string without leading and trailing spaces, tabs and newlines.',
    impl: (ctx, self) => {
      chargeWork(ctx, self.length);
      return made(ctx, self.trim());
    },
  },
  {
    name: 'contains',
    params: [{ name: 'part', type: 'string' }],
    returns: 'bool',
    doc: 'Whether part occurs in the string.',
    impl: (ctx, self, part) => {
      chargeWork(ctx, self.length + text(part).length);
      return findText(self, text(part)) >= 0;
    },
  },
  {
    name: 'startsWith',
    params: [{ name: 'prefix', type: 'string' }],
    returns: 'bool',
    doc: 'Whether the string begins with prefix.',
    impl: (ctx, self, prefix) => {
      chargeWork(ctx, text(prefix).length);
      return self.startsWith(text(prefix));
    },
  },
  {
    name: 'endsWith',
    params: [{ name: 'suffix', type: 'string' }],
    returns: 'bool',
    doc: 'Whether the string ends with suffix.',
    impl: (ctx, self, suffix) => {
      chargeWork(ctx, text(suffix).length);
      return self.endsWith(text(suffix));
    },
  },
  {
    name: 'indexOf',
    params: [{ name: 'part', type: 'string' }],
    returns: 'number',
    doc: 'Where part first occurs in the string, or -1.',
    impl: (ctx, self, part) => {
      chargeWork(ctx, self.length + text(part).length);
      return findText(self, text(part));
    },
  },
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
