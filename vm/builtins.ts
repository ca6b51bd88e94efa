/**
 * The core host functions every spell can call (Lox's `clock()` plus the
 * extensions' helpers). Each is one row: name, typed parameters, return type,
 * one line of docs, implementation. Builtins charge fuel / heap for work that
 * grows with their input, so none lets a cast run past its budgets; those
 * that never charge the heap are marked `heapFree` (vm/objects.ts).
 */

import { displayBounded } from './display.js';
import { HostError } from './errors.js';
import type { HostFunction } from './host.js';
import { ObjMap } from './map-object.js';
import { ObjList, heapFree } from './objects.js';
import type { Value } from './value.js';

const started = typeof performance !== 'undefined' ? performance.now() : Date.now();

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

function num(v: Value): number {
  return v as number;
}

/** A one-number function of the math library. */
function unary(name: string, doc: string, fn: (n: number) => number, param = 'n'): HostFunction {
  return heapFree({ name, params: [{ name: param, type: 'number' }], returns: 'number', doc, impl: (_ctx, n) => fn(num(n)) });
}

/** A two-number function: `name(a, b)`. */
function binary(name: string, [a, b]: readonly [string, string], doc: string, fn: (a: number, b: number) => number): HostFunction {
  return heapFree({
    name,
    params: [
      { name: a, type: 'number' },
      { name: b, type: 'number' },
    ],
    returns: 'number',
    doc,
    impl: (_ctx, x, y) => fn(num(x), num(y)),
  });
}

/** Luau's and GDScript's round: halves go away from zero (JavaScript's Math.round sends -2.5 to -2). */
function roundHalfAway(n: number): number {
  return n < 0 ? -Math.round(-n) : Math.round(n);
}

/**
 * The math designers reach for, as Luau's math library and GDScript's
 * globals name it: trigonometry in radians, powers and logs, rounding,
 * clamp / lerp, degrees ⇄ radians, and π as `pi()` (a function, not a
 * constant, so a Lox program that defines its own `pi` or `PI` is unchanged).
 */
const GAME_MATH: readonly HostFunction[] = [
  unary('sin', 'The sine of an angle in radians.', Math.sin, 'radians'),
  unary('cos', 'The cosine of an angle in radians.', Math.cos, 'radians'),
  unary('tan', 'The tangent of an angle in radians.', Math.tan, 'radians'),
  unary('asin', 'The angle in radians (−π/2 to π/2) whose sine is n.', Math.asin),
  unary('acos', 'The angle in radians (0 to π) whose cosine is n.', Math.acos),
  unary('atan', 'The angle in radians (−π/2 to π/2) whose tangent is n.', Math.atan),
  binary('atan2', ['y', 'x'], 'The angle in radians (−π to π) from the x axis to the point (x, y): the direction of a vector.', Math.atan2),
  binary('pow', ['base', 'exponent'], 'base raised to the power exponent.', Math.pow),
  unary('exp', 'e raised to the power n.', Math.exp),
  {
    name: 'log',
    params: [
      { name: 'n', type: 'number' },
      { name: 'base', type: 'number', optional: true, doc: 'default e (the natural logarithm)' },
    ],
    returns: 'number',
    doc: 'The logarithm of n (natural, or in the given base).',
    impl: (_ctx, n, base) => (base === undefined ? Math.log(num(n)) : Math.log(num(n)) / Math.log(num(base))),
  },
  unary('round', 'n rounded to the nearest whole number (halves away from zero).', roundHalfAway),
  unary('ceil', 'The smallest whole number not less than n.', Math.ceil),
  unary('sign', '-1, 0 or 1: the sign of n.', (n) => (n > 0 ? 1 : n < 0 ? -1 : n)),
  {
    name: 'clamp',
    params: [
      { name: 'n', type: 'number' },
      { name: 'low', type: 'number' },
      { name: 'high', type: 'number' },
    ],
    returns: 'number',
    doc: 'n limited to the range low to high.',
    impl: (_ctx, n, low, high) => Math.min(Math.max(num(n), num(low)), num(high)),
  },
  {
    name: 'lerp',
    params: [
      { name: 'from', type: 'number' },
      { name: 'to', type: 'number' },
      { name: 't', type: 'number', doc: '0 gives from, 1 gives to' },
    ],
    returns: 'number',
    doc: 'The value a fraction t of the way from `from` to `to`.',
    impl: (_ctx, from, to, t) => num(from) + (num(to) - num(from)) * num(t),
  },
  unary('deg', 'An angle in radians, in degrees.', (r) => (r * 180) / Math.PI, 'radians'),
  unary('rad', 'An angle in degrees, in radians.', (d) => (d * Math.PI) / 180, 'degrees'),
  heapFree({
    name: 'pi',
    params: [],
    returns: 'number',
    doc: 'π, half a turn in radians (3.14159…).',
    impl: () => Math.PI,
  }),
];

export const CORE_HOST_FUNCTIONS: readonly HostFunction[] = [
  heapFree({
    name: 'clock',
    params: [],
    returns: 'number',
    doc: 'Seconds since the program started (Lox’s native clock).',
    impl: () => (now() - started) / 1000,
  }),
  heapFree({
    name: 'len',
    params: [{ name: 'x', type: 'any', doc: 'a list, a map or a string' }],
    returns: 'number',
    doc: 'The number of elements of a list, entries of a map or characters of a string.',
    impl: (_ctx, x) => {
      if (x instanceof ObjList) return x.items.length;
      if (typeof x === 'string') return x.length;
      if (x instanceof ObjMap) return x.size;
      throw new HostError('Argument 1 of len() must be a list, a map or a string.');
    },
  }),
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
  unary('floor', 'The largest whole number not greater than n.', Math.floor),
  unary('abs', 'The absolute value of n.', Math.abs),
  unary('sqrt', 'The square root of n (nan for negative n).', Math.sqrt),
  binary('min', ['a', 'b'], 'The smaller of a and b.', Math.min),
  binary('max', ['a', 'b'], 'The larger of a and b.', Math.max),
  ...GAME_MATH,
];
