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
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { disassemble } from '../../vm/disassembler.js';
import { VerifyError } from '../../vm/errors.js';
import type { HostFunction } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { readSpb, writeSpb } from '../../vm/spb.js';
import { verifyModule } from '../../vm/verifier.js';
import { VM } from '../../vm/vm.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function filesUnder(dir: string, extension: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(full, extension);
      return entry.name.endsWith(extension) ? [full] : [];
    })
    .sort();
}

function docExamples(): { name: string; source: string }[] {
  return filesUnder(path.join(ROOT, 'docs'), '.md').flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return [...text.matchAll(/^```cantrip\n([\s\S]*?)^```/gm)].map((m, i) => ({
      name: `${path.relative(ROOT, file)}#${i}`,
      source: m[1]!,
    }));
  });
}

/** The game's host API when the runtime provides one, so spells calling damage() etc. compile too. */
async function allHosts(): Promise<readonly HostFunction[]> {
  try {
    // A computed path: the runtime is optional here, and vm-level tests must not need it to type-check.
    const hostApi = '../../runtime/host-api.js';
    const runtime = (await import(hostApi)) as { GAME_HOST_FUNCTIONS?: readonly HostFunction[] };
    return [...CORE_HOST_FUNCTIONS, ...(runtime.GAME_HOST_FUNCTIONS ?? [])];
  } catch {
    return CORE_HOST_FUNCTIONS;
  }
}

interface Compiled {
  readonly name: string;
  readonly module: Module;
  readonly bytes: Uint8Array;
  /** Uses only the core host functions, so it can run in a bare VM. */
  readonly coreOnly: boolean;
}

const hosts = await allHosts();
const coreNames = new Set(CORE_HOST_FUNCTIONS.map((h) => h.name));
const sources = [
  ...filesUnder(path.join(ROOT, 'spells'), '.spell'),
  ...filesUnder(path.join(ROOT, 'tests/conformance'), '.spell'),
].map((file) => ({ name: path.relative(ROOT, file), source: fs.readFileSync(file, 'utf8') }));
sources.push(...docExamples());

const corpus: Compiled[] = sources.flatMap(({ name, source }) => {
  const { module } = compile(source, { sourceName: name, hosts });
  if (module === null) return [];
  const coreOnly = module.hostImports.every((imp) => coreNames.has(imp.name));
  return [{ name, module, bytes: writeSpb(module), coreOnly }];
});
const runnable = corpus.filter((c) => c.coreOnly);

/** Load like `cantrip run` does, then run under small budgets. Returns an "Internal error" message or null. */
function loadAndRun(bytes: Uint8Array): string | null {
  let module: Module;
  try {
    module = readSpb(bytes);
    verifyModule(module, CORE_HOST_FUNCTIONS);
  } catch (error) {
    if (error instanceof VerifyError) return null;
    throw error;
  }
  return runModule(module);
}

function runModule(module: Module): string | null {
  const vm = new VM(module, { print: () => {}, fuel: 20_000, maxFrames: 32, maxStack: 4_000, maxHeap: 100_000 });
  const fibers = [vm.runScript()];
  for (const spell of vm.spellNames().slice(0, 3)) fibers.push(vm.cast(spell, [1, 'two', null]));
  for (const fiber of fibers) {
    const message = fiber.error?.message ?? null;
    if (message !== null && message.startsWith('Internal error')) return message;
  }
  return null;
}

describe('compiled programs', () => {
  it('has a corpus to work on', () => {
    expect(corpus.length).toBeGreaterThan(20);
    expect(runnable.length).toBeGreaterThan(10);
  });

  it('always pass the verifier', () => {
    for (const { name, module } of corpus) {
      expect(() => verifyModule(module, hosts), name).not.toThrow();
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

describe('mutated bytecode files', () => {
  const arbFile = fc.nat({ max: Math.max(0, runnable.length - 1) }).map((i) => runnable[i]!);

  it('bit flips and byte overwrites: rejected or safe', () => {
    fc.assert(
      fc.property(
        arbFile,
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 7 }), fc.boolean(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 3 }),
        ({ bytes }, mutations) => {
          const mutated = bytes.slice();
          for (const [at, bit, overwrite, value] of mutations) {
            const i = at % mutated.length;
            if (overwrite) mutated[i] = value;
            else mutated[i]! ^= 1 << bit;
          }
          expect(loadAndRun(mutated)).toBeNull();
        },
      ),
      { numRuns: 4_000, seed: 21 },
    );
  });

  it('truncations: rejected or safe', () => {
    fc.assert(
      fc.property(arbFile, fc.nat(), ({ bytes }, cut) => {
        expect(loadAndRun(bytes.subarray(0, cut % bytes.length))).toBeNull();
      }),
      { numRuns: 1_000, seed: 22 },
    );
  });

  it('splices of two files: rejected or safe', () => {
    fc.assert(
      fc.property(arbFile, arbFile, fc.nat(), fc.nat(), (a, b, i, j) => {
        const head = a.bytes.subarray(0, i % a.bytes.length);
        const tail = b.bytes.subarray(j % b.bytes.length);
        expect(loadAndRun(new Uint8Array([...head, ...tail]))).toBeNull();
      }),
      { numRuns: 2_000, seed: 23 },
    );
  });
});

describe('mutated code words', () => {
  it('a changed opcode or operand is rejected, or runs safely', () => {
    const arbProgram = fc.nat({ max: Math.max(0, runnable.length - 1) }).map((i) => runnable[i]!.module);
    fc.assert(
      fc.property(arbProgram, fc.nat(), fc.nat(), fc.integer({ min: -2, max: 60 }), (module, f, at, word) => {
        const fn = module.functions[f % module.functions.length]!;
        const code = fn.code.slice();
        code[at % code.length] = word;
        const functions = module.functions.map((g) => (g === fn ? { ...g, code } : g));
        const mutated: Module = { ...module, functions };
        try {
          verifyModule(mutated, CORE_HOST_FUNCTIONS);
        } catch (error) {
          expect(error).toBeInstanceOf(VerifyError);
          return;
        }
        expect(runModule(mutated)).toBeNull();
      }),
      { numRuns: 4_000, seed: 24 },
    );
  });
});
