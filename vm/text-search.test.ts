import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findText, splitText } from './text-search.js';

describe('findText and splitText agree with JavaScript, in linear time', () => {
  it('find and split as indexOf and split do, for short and long patterns over a small alphabet', () => {
    const text = fc.stringMatching(/^[ab]{0,60}$/);
    fc.assert(
      fc.property(text, text, fc.nat(70), (t, p, from) => {
        expect(findText(t, p)).toBe(t.indexOf(p));
        expect(findText(t, p, from)).toBe(t.indexOf(p, from));
        expect(splitText(t, p)).toEqual(t.split(p));
      }),
      { numRuns: 3000, seed: 17 },
    );
  });

  it('patterns past the engine threshold: overlapping prefixes, a match at the end, none at all', () => {
    const p = 'a'.repeat(40) + 'b';
    expect(findText('a'.repeat(100) + 'b', p)).toBe(60);
    expect(findText('a'.repeat(100), p)).toBe(-1);
    expect(splitText(`x${p}y${p}${p}z`, p)).toEqual(['x', 'y', '', 'z']);
    expect(splitText(p, p)).toEqual(['', '']);
  });
});
