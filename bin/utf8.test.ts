import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findInvalidUtf8, lineAtByte } from './utf8.js';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('findInvalidUtf8', () => {
  it('accepts ASCII, multi-byte characters and the empty file', () => {
    expect(findInvalidUtf8(new TextEncoder().encode('print "café 🔥 ∑";'))).toBe(-1);
    expect(findInvalidUtf8(bytes())).toBe(-1);
  });

  it.each([
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['a truncated two-byte sequence', bytes(0x61, 0x62, 0xc3), 2],
    ['a bad continuation', bytes(0xc3, 0x28), 0],
    ['an overlong encoding', bytes(0xc0, 0xaf), 0],
    ['an overlong three-byte form', bytes(0xe0, 0x80, 0xaf), 0],
    ['a UTF-16 surrogate', bytes(0xed, 0xa0, 0x80), 0],
    ['a code point past U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['a 0xFF byte', bytes(0x20, 0x20, 0xff), 2],
  ])('finds %s', (_name, input, offset) => {
    expect(findInvalidUtf8(input)).toBe(offset);
  });

  it('agrees with TextDecoder in fatal mode on random bytes', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        let valid = true;
        try {
          strict.decode(input);
        } catch {
          valid = false;
        }
        expect(findInvalidUtf8(input) === -1).toBe(valid);
      }),
      { numRuns: 2000, seed: 42 },
    );
  });

  it('accepts every string TextEncoder produces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(findInvalidUtf8(new TextEncoder().encode(text))).toBe(-1);
      }),
      { numRuns: 1000, seed: 7 },
    );
  });
});

describe('lineAtByte', () => {
  it('counts newlines before the offset', () => {
    const text = new TextEncoder().encode('a\nb\nc');
    expect([0, 1, 2, 4].map((i) => lineAtByte(text, i))).toEqual([1, 1, 2, 3]);
  });
});
