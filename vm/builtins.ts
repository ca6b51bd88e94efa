/**
 * The core host functions every spell can call (Lox's `clock()` plus the
 * extensions' helpers). Each is one row: name, typed parameters, return type,
 * one line of docs, implementation. Builtins charge fuel / heap for work that
 * grows with their input, so none lets a cast run past its budgets.
 */

import { displayBounded } from './display.js';
import { HostError } from './errors.js';
import type { HostFunction } from './host.js';
import { ObjList } from './objects.js';
import type { Value } from './value.js';

const started = typeof performance !== 'undefined' ? performance.now() : Date.now();

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

function num(v: Value): number {
  return v as number;
}

export const CORE_HOST_FUNCTIONS: readonly HostFunction[] = [
  {
    name: 'clock',
    params: [],
    returns: 'number',
    doc: 'Seconds since the program started (Lox’s native clock).',
    impl: () => (now() - started) / 1000,
  },
  {
    name: 'len',
    params: [{ name: 'x', type: 'any', doc: 'a list or a string' }],
    returns: 'number',
    doc: 'The number of elements of a list or characters of a string.',
    impl: (_ctx, x) => {
      if (x instanceof ObjList) return x.items.length;
      if (typeof x === 'string') return x.length;
      throw new HostError('Argument 1 of len() must be a list or a string.');
    },
  },
  {
    name: 'str',
    params: [{ name: 'x', type: 'any' }],
    returns: 'string',
    doc: 'The value as a string, exactly as print shows it.',
    impl: (ctx, x) => {
      if (typeof x === 'string') return x;
      // Lists can be long: the conversion is work, and the string is heap.
      const text = displayBounded(x, ctx.remainingFuel);
      if (text === null) ctx.chargeFuel(ctx.remainingFuel + 1); // throws the fuel error
      ctx.chargeFuel(text?.length ?? 0);
      ctx.chargeHeap(text?.length ?? 0);
      return text ?? '';
    },
  },
  {
    name: 'floor',
    params: [{ name: 'n', type: 'number' }],
    returns: 'number',
    doc: 'The largest whole number not greater than n.',
    impl: (_ctx, n) => Math.floor(num(n)),
  },
  {
    name: 'abs',
    params: [{ name: 'n', type: 'number' }],
    returns: 'number',
    doc: 'The absolute value of n.',
    impl: (_ctx, n) => Math.abs(num(n)),
  },
  {
    name: 'sqrt',
    params: [{ name: 'n', type: 'number' }],
    returns: 'number',
    doc: 'The square root of n (nan for negative n).',
    impl: (_ctx, n) => Math.sqrt(num(n)),
  },
  {
    name: 'min',
    params: [
      { name: 'a', type: 'number' },
      { name: 'b', type: 'number' },
    ],
    returns: 'number',
    doc: 'The smaller of a and b.',
    impl: (_ctx, a, b) => Math.min(num(a), num(b)),
  },
  {
    name: 'max',
    params: [
      { name: 'a', type: 'number' },
      { name: 'b', type: 'number' },
    ],
    returns: 'number',
    doc: 'The larger of a and b.',
    impl: (_ctx, a, b) => Math.max(num(a), num(b)),
  },
];
