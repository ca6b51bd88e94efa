import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asmModule } from './assemble.test-helper.js';
import { VerifyError } from './errors.js';
import type { FunctionKind, FunctionProto, Module } from './module.js';
import { looksLikeSpb, readSpb, SECTION_TAGS, SPB_MAGIC, SPB_VERSION, writeSpb } from './spb.js';

const sample: Module = asmModule({
  sourceName: 'sample.spell',
  constants: [1.5, 'hello', -0, 'héllo ✨', 1e300, NaN],
  globals: ['counter', 'greet'],
  hostImports: [
    { name: 'len', arities: [1] },
    { name: 'damage', arities: [2, 3] },
  ],
  spells: [{ name: 'greet', functionIndex: 1 }],
  functions: [
    { code: ['#1', 'CONSTANT', 0, 'PRINT', '#2', 'CLOSURE', 1, 'DEFINE_GLOBAL', 1, '#900000', 'NIL', 'RETURN'] },
    {
      name: 'greet',
      kind: 'spell',
      arity: 2,
      maxStack: 5,
      locals: [{ name: 'who', slot: 1, startPc: 0, endPc: 4 }],
      code: ['#3', 'GET_LOCAL', 1, 'CALL_HOST', 0, 1, '#2', 'RETURN'],
    },
    { name: 'inner', upvalues: [{ isLocal: true, index: 1 }, { isLocal: false, index: 0 }], code: ['NIL', 'RETURN'] },
  ],
});

/** Read, and classify the outcome: a Module, or a VerifyError message. Anything else fails the test. */
function readOutcome(bytes: Uint8Array): Module | string {
  try {
    return readSpb(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(VerifyError);
    expect((error as VerifyError).message).not.toMatch(/Malformed bytecode file \(/); // the internal-bug fallback
    return (error as VerifyError).message;
  }
}

/** Where each section (by tag) starts in a well-formed file. */
function sectionOffsets(bytes: Uint8Array): Map<number, number> {
  const offsets = new Map<number, number>();
  for (let pos = SPB_MAGIC.length + 2; pos < bytes.length; ) {
    offsets.set(bytes[pos]!, pos);
    pos += 5 + new DataView(bytes.buffer, bytes.byteOffset + pos + 1, 4).getUint32(0, true);
  }
  return offsets;
}

function errorOf(bytes: Uint8Array): string {
  const outcome = readOutcome(bytes);
  expect(typeof outcome).toBe('string');
  return outcome as string;
}

/** UTF-8 cannot hold lone surrogates, so the round trip is only promised for well-formed strings. */
function isWellFormed(s: string): boolean {
  return new TextDecoder().decode(new TextEncoder().encode(s)) === s;
}

const arbKind = fc.constantFrom<FunctionKind>('script', 'function', 'method', 'initializer', 'spell');
const arbInt32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const arbU32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const arbSmall = fc.nat({ max: 300 });

const arbFunction: fc.Arbitrary<FunctionProto> = fc
  .record({
    name: fc.string(),
    kind: arbKind,
    arity: arbU32,
    maxStack: arbU32,
    upvalues: fc.array(fc.record({ isLocal: fc.boolean(), index: arbU32 }), { maxLength: 4 }),
    code: fc.array(fc.oneof(arbSmall, arbInt32), { maxLength: 40 }),
    lineSeed: fc.array(fc.oneof(arbSmall, arbInt32), { minLength: 1, maxLength: 5 }),
    locals: fc.array(fc.record({ name: fc.string(), slot: arbU32, startPc: arbU32, endPc: arbU32 }), { maxLength: 3 }),
  })
  .map(({ code, lineSeed, ...rest }) => ({
    ...rest,
    code: Int32Array.from(code),
    // Runs of equal lines, as compilers produce, with some arbitrary jumps.
    lines: Int32Array.from(code.map((_, i) => lineSeed[Math.floor((i * lineSeed.length) / Math.max(1, code.length))]!)),
  }));

const arbModule: fc.Arbitrary<Module> = fc.record({
  constants: fc.array(fc.oneof(fc.double(), fc.string(), fc.string({ unit: 'binary' }).filter(isWellFormed)), {
    maxLength: 8,
  }),
  functions: fc.array(arbFunction, { minLength: 1, maxLength: 4 }),
  globals: fc.array(fc.string(), { maxLength: 4 }),
  hostImports: fc.array(fc.record({ name: fc.string(), arities: fc.array(arbU32, { maxLength: 3 }) }), { maxLength: 3 }),
  spells: fc.array(fc.record({ name: fc.string(), functionIndex: arbU32 }), { maxLength: 3 }),
  sourceName: fc.string(),
});

describe('writeSpb / readSpb round trip', () => {
  it('reads back what it wrote', () => {
    expect(readSpb(writeSpb(sample))).toEqual(sample);
  });

  it('starts with the magic and the version', () => {
    const bytes = writeSpb(sample);
    expect([...bytes.subarray(0, SPB_MAGIC.length)]).toEqual(SPB_MAGIC);
    expect(bytes[SPB_MAGIC.length]! | (bytes[SPB_MAGIC.length + 1]! << 8)).toBe(SPB_VERSION);
    expect(looksLikeSpb(bytes)).toBe(true);
    expect(looksLikeSpb(new TextEncoder().encode('print 1;'))).toBe(false);
  });

  it('keeps -0, NaN and huge line numbers', () => {
    const back = readSpb(writeSpb(sample));
    expect(Object.is(back.constants[2], -0)).toBe(true);
    expect(back.constants[5]).toBeNaN();
    expect(back.functions[0]!.lines[back.functions[0]!.lines.length - 1]).toBe(900000);
  });

  it('round-trips arbitrary modules', () => {
    fc.assert(
      fc.property(arbModule, (module) => {
        expect(readSpb(writeSpb(module))).toEqual(module);
      }),
      { numRuns: 300, seed: 1 },
    );
  });

  it('reads from a view into a larger buffer (a Node Buffer from the pool)', () => {
    const bytes = writeSpb(sample);
    const big = new Uint8Array(bytes.length + 13);
    big.set(bytes, 7);
    expect(readSpb(big.subarray(7, 7 + bytes.length))).toEqual(sample);
    expect(readSpb(Buffer.from(bytes))).toEqual(sample);
  });

  it('is compact: small code words take one byte each', () => {
    const bytes = writeSpb(sample);
    expect(bytes.length).toBeLessThan(250);
  });

  it('refuses to write values the format cannot hold', () => {
    const bad = { ...sample, functions: [{ ...sample.functions[0]!, arity: -1 }] };
    expect(() => writeSpb(bad)).toThrow(VerifyError);
    const badLines = { ...sample, functions: [{ ...sample.functions[0]!, lines: new Int32Array(1) }] };
    expect(() => writeSpb(badLines)).toThrow(/line entries/);
  });
});

describe('readSpb on bad input', () => {
  const good = writeSpb(sample);

  it('names a foreign file', () => {
    expect(errorOf(new TextEncoder().encode('print "hello";'))).toBe('Not a Cantrip bytecode file (bad magic).');
    expect(errorOf(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))).toBe('Not a Cantrip bytecode file (bad magic).');
  });

  it('names an empty file', () => {
    expect(errorOf(new Uint8Array(0))).toMatch(/^Empty file/);
  });

  it('names an unsupported version', () => {
    const bytes = good.slice();
    bytes[SPB_MAGIC.length] = 7;
    expect(errorOf(bytes)).toBe('Unsupported bytecode version 7 (this Cantrip reads version 1).');
  });

  it('names the truncated section', () => {
    expect(errorOf(good.subarray(0, good.length - 1))).toBe(
      "Truncated file: section 'locals' ends past the end of the file.",
    );
    const functionsAt = sectionOffsets(good).get(SECTION_TAGS.functions)!;
    expect(errorOf(good.subarray(0, functionsAt + 12))).toBe(
      "Truncated file: section 'functions' ends past the end of the file.",
    );
    expect(errorOf(good.subarray(0, 4))).toMatch(/^Truncated file: the header/);
  });

  it('reports truncation at every length, never anything else', () => {
    for (let length = 0; length < good.length; length++) {
      const outcome = readOutcome(good.subarray(0, length));
      // Only a prefix ending exactly between sections can still be a module, and then it lacks a later section.
      if (typeof outcome !== 'string') expect(outcome.functions.length).toBeGreaterThan(0);
    }
  });

  it('skips unknown sections, rejects duplicated and missing ones', () => {
    const unknown = new Uint8Array([0x99, 3, 0, 0, 0, 1, 2, 3]);
    const withUnknown = new Uint8Array([...good, ...unknown]);
    expect(readSpb(withUnknown)).toEqual(sample);

    const header = good.subarray(0, SPB_MAGIC.length + 2);
    expect(errorOf(header)).toBe("Malformed file: the 'functions' section is missing.");

    const source = new Uint8Array([SECTION_TAGS.source, 1, 0, 0, 0, 0]);
    expect(errorOf(new Uint8Array([...good, ...source]))).toBe("Malformed file: section 'source' appears twice.");
  });

  it('caps forged counts by the bytes left instead of allocating', () => {
    const header = [...good.subarray(0, SPB_MAGIC.length + 2)];
    // functions section claiming 2^32-1 functions in a 5-byte payload.
    const forged = new Uint8Array([...header, SECTION_TAGS.functions, 5, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(errorOf(forged)).toMatch(/^Malformed section 'functions': function count 4294967295 is more than/);
  });

  it('rejects invalid UTF-8 in strings', () => {
    const header = [...good.subarray(0, SPB_MAGIC.length + 2)];
    const bytes = new Uint8Array([...header, SECTION_TAGS.source, 3, 0, 0, 0, 2, 0xc3, 0x28]);
    expect(errorOf(bytes)).toBe("Malformed section 'source': source name is not valid UTF-8.");
  });

  it('rejects trailing bytes inside a section', () => {
    const header = [...good.subarray(0, SPB_MAGIC.length + 2)];
    const bytes = new Uint8Array([...header, SECTION_TAGS.source, 3, 0, 0, 0, 1, 0x41, 0x42]);
    expect(errorOf(bytes)).toBe("Malformed section 'source': 1 unexpected bytes at the end of the section.");
  });

  it('survives random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => void readOutcome(bytes)), {
      numRuns: 2000,
      seed: 2,
    });
  });

  it('survives random bytes after a valid header', () => {
    const header = good.subarray(0, SPB_MAGIC.length + 2);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (tail) => void readOutcome(new Uint8Array([...header, ...tail]))),
      { numRuns: 2000, seed: 3 },
    );
  });

  it('survives bit flips and byte overwrites of a valid file', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: good.length - 1 }), fc.nat({ max: 7 }), fc.boolean(), fc.nat({ max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (mutations) => {
          const bytes = good.slice();
          for (const [at, bit, overwrite, value] of mutations) {
            if (overwrite) bytes[at] = value;
            else bytes[at]! ^= 1 << bit;
          }
          void readOutcome(bytes);
        },
      ),
      { numRuns: 3000, seed: 4 },
    );
  });

  it('survives mutated arbitrary modules', () => {
    fc.assert(
      fc.property(arbModule, fc.nat(), fc.nat({ max: 7 }), (module, at, bit) => {
        const bytes = writeSpb(module);
        bytes[at % bytes.length]! ^= 1 << bit;
        void readOutcome(bytes);
        void readOutcome(bytes.subarray(0, at % bytes.length));
      }),
      { numRuns: 500, seed: 5 },
    );
  });
});
