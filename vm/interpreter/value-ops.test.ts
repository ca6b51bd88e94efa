import { describe, expect, it } from 'vitest';
import { concatStrings, flatConstants } from './value-ops.js';

describe('flatConstants', () => {
  it('keeps every constant equal, in place, numbers untouched', () => {
    const source = 'var s = "abcdefghijklmnopqrstuvwxyz3";';
    const sliced = source.slice(9, 36);
    const constants = [sliced, 1.5, -0, '', '12', '__proto__', 'constructor', '\ud800 lone surrogate', 'has'];
    const flat = flatConstants(constants);
    expect(flat).toEqual(constants);
    expect(Object.is(flat[2], -0)).toBe(true);
    expect(flat).toHaveLength(constants.length);
  });

  it('works once per constants table', () => {
    const constants = ['abcdefghijklmnopqrstuvwxyz'];
    expect(flatConstants(constants)).toBe(flatConstants(constants));
  });
});

describe('concatStrings', () => {
  it('joins short and long strings alike', () => {
    expect(concatStrings('abcdefghijklm', 'nop')).toBe('abcdefghijklmnop');
    const long = 'x'.repeat(300);
    expect(concatStrings(long, 'y')).toBe(`${long}y`);
  });
});
