/**
 * Compiled bytecode through the whole loading path, on real programs: every
 * spell in spells/ and tests/conformance/ (and the docs' examples).
 *
 * - The compiler's output always passes the verifier.
 * - writeSpb → readSpb gives back the same module.
 * - Mutated files (bit flips, byte overwrites, truncations, splices of two
 *   files) and mutated code words are rejected with a VerifyError, or the
 *   module verifies and then runs in the VM under small budgets ending only
 *   in Cantrip errors — never a JS exception, never an "Internal error".
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { disassemble } from '../../vm/disassembler.js';
import { VerifyError } from '../../vm/errors.js';
import type { Module } from '../../vm/module.js';
import { readSpb, writeSpb } from '../../vm/spb.js';
import { verifyModule } from '../../vm/verifier.js';
import { REPO, spellCorpus, type SourceFile } from './corpus.js';
import { checkProperty } from './fuzz-settings.js';
import { runModuleSafely } from './safe-run.js';

const HOSTS = WORLD_HOST_FUNCTIONS;

/** The docs' ```cantrip examples, compiled like the spells. */
function docExamples(): SourceFile[] {
  const docs = path.join(REPO, 'docs');
  return fs
    .readdirSync(docs)
    .filter((f) => f.endsWith('.md'))
    .flatMap((file) => {
      const text = fs.readFileSync(path.join(docs, file), 'utf8');
      return [...text.matchAll(/^```cantrip\n([\s\S]*?)^```/gm)].map((m, i) => ({ name: `docs/${file}#${i}`, text: m[1]! }));
    });
}

interface Compiled {
  readonly name: string;
  readonly module: Module;
  readonly bytes: Uint8Array;
}

const corpus: Compiled[] = [...spellCorpus(), ...docExamples()].flatMap(({ name, text }) => {
  const { module } = compile(text, { sourceName: name, hosts: HOSTS });
  return module === null ? [] : [{ name, module, bytes: writeSpb(module) }];
});

/** Load like `cantrip run` does (read, verify), then run under small budgets. Returns the problems found. */
function loadAndRun(bytes: Uint8Array): string[] {
  let module: Module;
  try {
    module = readSpb(bytes);
    verifyModule(module, HOSTS);
  } catch (error) {
    if (error instanceof VerifyError) return [];
    return [`load threw ${String(error)}`];
  }
  return runModuleSafely(module, HOSTS);
}

describe('compiled programs', () => {
  it('has a corpus to work on', () => {
    expect(corpus.length).toBeGreaterThan(20);
  });

  it('always pass the verifier', () => {
    for (const { name, module } of corpus) {
      expect(() => verifyModule(module, HOSTS), name).not.toThrow();
    }
  });

  it('round-trip through .spb unchanged', () => {
    for (const { name, module, bytes } of corpus) {
      expect(readSpb(bytes), name).toEqual(module);
    }
  });

  it('disassemble, with a header per function', () => {
    for (const { module } of corpus) {
      const listing = disassemble(module);
      expect(listing.match(/^== .* ==$/gm)?.length).toBe(module.functions.length);
      expect(listing).not.toMatch(/UNKNOWN|<no such|<missing operand>/);
    }
  });
});

const arbFile = fc.nat({ max: Math.max(0, corpus.length - 1) }).map((i) => corpus[i]!);

describe('mutated bytecode files', () => {
  it('bit flips and byte overwrites: rejected or safe', () => {
    const mutation = fc.tuple(fc.nat(), fc.nat({ max: 7 }), fc.boolean(), fc.nat({ max: 255 }));
    const property = fc.property(arbFile, fc.array(mutation, { minLength: 1, maxLength: 3 }), ({ bytes }, mutations) => {
      const mutated = bytes.slice();
      for (const [at, bit, overwrite, value] of mutations) {
        const i = at % mutated.length;
        if (overwrite) mutated[i] = value;
        else mutated[i]! ^= 1 << bit;
      }
      expect(loadAndRun(mutated)).toEqual([]);
    });
    checkProperty('spb: bit flips', property, 3_000);
  });

  it('truncations: rejected or safe', () => {
    const property = fc.property(arbFile, fc.nat(), ({ bytes }, cut) => {
      expect(loadAndRun(bytes.subarray(0, cut % bytes.length))).toEqual([]);
    });
    checkProperty('spb: truncations', property, 1_000);
  });

  it('splices of two files: rejected or safe', () => {
    const property = fc.property(arbFile, arbFile, fc.nat(), fc.nat(), (a, b, i, j) => {
      const head = a.bytes.subarray(0, i % a.bytes.length);
      const tail = b.bytes.subarray(j % b.bytes.length);
      expect(loadAndRun(new Uint8Array([...head, ...tail]))).toEqual([]);
    });
    checkProperty('spb: splices', property, 1_500);
  });
});

describe('mutated code words', () => {
  it('a changed opcode or operand is rejected, or runs safely', () => {
    const property = fc.property(arbFile, fc.nat(), fc.nat(), fc.integer({ min: -2, max: 60 }), ({ module }, f, at, word) => {
      const fn = module.functions[f % module.functions.length]!;
      const code = fn.code.slice();
      code[at % code.length] = word;
      const mutated: Module = { ...module, functions: module.functions.map((g) => (g === fn ? { ...g, code } : g)) };
      try {
        verifyModule(mutated, HOSTS);
      } catch (error) {
        expect(error).toBeInstanceOf(VerifyError);
        return;
      }
      expect(runModuleSafely(mutated, HOSTS)).toEqual([]);
    });
    checkProperty('spb: code word mutations', property, 3_000);
  });
});
