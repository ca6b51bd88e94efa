/**
 * Methods of lists: `a.append(x)`, `a.sort()`, `names.join(", ")` …
 * `append`, `insert`, `remove`, `pop` and `sort` change the list in place;
 * `slice` and `join` make new values. Each charges fuel for the elements it
 * visits or moves (before the work) and heap for what it creates.
 */

import { chargeNewList, chargeWork, methodTable, sliceBounds, SLICE_PARAMS, wholeNumber, type BuiltinMethod } from './builtin-method.js';
import { displayBounded } from './display.js';
import { HostError } from './errors.js';
import type { HostContext } from './host.js';
import { ObjList, valuesEqual } from './objects.js';
import type { Value } from './value.js';

/** An index of an existing element, with the book-style messages `a[i]` gives. */
function elementIndex(list: ObjList, index: Value | undefined): number {
  if (typeof index !== 'number') throw new HostError('List index must be a number.');
  if (!Number.isInteger(index)) throw new HostError('List index must be a whole number.');
  if (index < 0 || index >= list.items.length) throw new HostError('List index out of range.');
  return index;
}

/** Comparing two long strings of one length is work too (as `==` charges it). */
function compareCost(a: Value, b: Value | undefined): number {
  return typeof a === 'string' && typeof b === 'string' && a.length === b.length ? a.length >> 6 : 0;
}

function find(ctx: HostContext, list: ObjList, value: Value | undefined): number {
  const items = list.items;
  chargeWork(ctx, items.length);
  const target = value ?? null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (valuesEqual(item, target)) return i;
    if (typeof item === 'string') ctx.chargeFuel(compareCost(item, target));
  }
  return -1;
}

/** The element kind a sortable list holds, or a HostError. */
function sortKind(items: readonly Value[]): 'number' | 'string' {
  const kind = typeof items[0];
  if ((kind === 'number' || kind === 'string') && items.every((item) => typeof item === kind)) return kind;
  throw new HostError('sort() needs a list of only numbers or only strings.');
}

function sortList(ctx: HostContext, list: ObjList): void {
  const items = list.items;
  if (items.length < 2) return;
  const kind = sortKind(items);
  const comparisons = items.length * Math.ceil(Math.log2(items.length));
  let characters = 0;
  if (kind === 'string') for (const item of items) characters += (item as string).length;
  // n log n comparisons, and strings compared character by character.
  chargeWork(ctx, comparisons + characters);
  if (kind === 'number') (items as number[]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // Code-unit order, the same as `<` would be if it took strings: deterministic across hosts.
  else (items as string[]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function join(ctx: HostContext, list: ObjList, separator: string): string {
  chargeWork(ctx, list.items.length);
  const parts: string[] = [];
  for (const item of list.items) {
    // Each element is shown as str() shows it, bounded by the fuel left (a list can hold itself).
    const part = displayBounded(item, ctx.remainingFuel);
    if (part === null) ctx.chargeFuel(ctx.remainingFuel + 1);
    ctx.chargeFuel(part!.length + separator.length);
    ctx.chargeHeap(part!.length + separator.length);
    parts.push(part!);
  }
  return parts.join(separator);
}

const LIST_METHODS: readonly BuiltinMethod<ObjList>[] = [
  {
    name: 'append',
    params: [{ name: 'value', type: 'any' }],
    returns: 'nil',
    doc: 'Adds value at the end of the list.',
    impl: (ctx, self, value) => {
      ctx.chargeHeap(1);
      self.items.push(value ?? null);
      return null;
    },
  },
  {
    name: 'insert',
    params: [
      { name: 'index', type: 'number', doc: '0 to len(list)' },
      { name: 'value', type: 'any' },
    ],
    returns: 'nil',
    doc: 'Puts value at index, moving the elements from there one place on.',
    impl: (ctx, self, index, value) => {
      const at = wholeNumber(index, 'insert', 'index');
      if (at < 0 || at > self.items.length) throw new HostError('List index out of range.');
      chargeWork(ctx, self.items.length - at);
      ctx.chargeHeap(1);
      self.items.splice(at, 0, value ?? null);
      return null;
    },
  },
  {
    name: 'remove',
    params: [{ name: 'index', type: 'any' }],
    returns: 'any',
    doc: 'Removes the element at index and returns it.',
    impl: (ctx, self, index) => {
      const at = elementIndex(self, index);
      // Removing shifts the tail: charge for the work.
      ctx.chargeFuel(self.items.length - at);
      return self.items.splice(at, 1)[0]!;
    },
  },
  {
    name: 'pop',
    params: [],
    returns: 'any',
    doc: 'Removes the last element and returns it.',
    impl: (_ctx, self) => {
      if (self.items.length === 0) throw new HostError("Can't pop from an empty list.");
      return self.items.pop()!;
    },
  },
  {
    name: 'contains',
    params: [{ name: 'value', type: 'any' }],
    returns: 'bool',
    doc: 'Whether an element == value.',
    impl: (ctx, self, value) => find(ctx, self, value) >= 0,
  },
  {
    name: 'indexOf',
    params: [{ name: 'value', type: 'any' }],
    returns: 'number',
    doc: 'The index of the first element == value, or -1.',
    impl: (ctx, self, value) => find(ctx, self, value),
  },
  {
    name: 'slice',
    params: SLICE_PARAMS,
    returns: 'list',
    doc: 'A new list of the elements from start up to (not including) end.',
    impl: (ctx, self, start, end) => {
      const [from, to] = sliceBounds(self.items.length, start, end, 'slice');
      chargeNewList(ctx, to - from);
      return new ObjList(self.items.slice(from, to));
    },
  },
  {
    name: 'sort',
    params: [],
    returns: 'nil',
    doc: 'Sorts the list in place: numbers from low to high, or strings in character-code order.',
    impl: (ctx, self) => {
      sortList(ctx, self);
      return null;
    },
  },
  {
    name: 'join',
    params: [{ name: 'separator', type: 'string' }],
    returns: 'string',
    doc: 'The elements as str() shows them, with separator between them.',
    impl: (ctx, self, separator) => join(ctx, self, separator as string),
  },
];

export const LIST_METHOD_TABLE = methodTable(LIST_METHODS);
