/**
 * Fuzz 2: programs generated from the grammar, run under small budgets
 * (fuel, frames, stack, heap): they finish or fail with a clean
 * SpellRuntimeError — never a JS exception, never an "Internal error", never
 * a hang (fuel guarantees termination; a hang would be this test timing out).
 *
 * Core programs run in a bare VM with the core builtins; world programs are
 * loaded into a small World with the game host API (spawn, nearby, damage,
 * wait …), cast both ways between two entities, and ticked.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { verifyModule } from '../../vm/verifier.js';
import { checkProperty } from './fuzz-settings.js';
import { programArbitrary, renderProgram } from './program-arbitrary.js';
import { runInWorldSafely, runModuleSafely } from './safe-run.js';

const corePrograms = programArbitrary({ world: false }).map(renderProgram);
const worldPrograms = programArbitrary({ world: true }).map(renderProgram);

/** Budgets drawn per case, so each limit is the one that ends some runs. */
const budgets = fc.record({
  fuel: fc.constantFrom(50, 500, 5_000, 30_000),
  maxFrames: fc.constantFrom(2, 8, 64),
  maxStack: fc.constantFrom(16, 256, 4_000),
  maxHeap: fc.constantFrom(4, 100, 20_000),
  maxFibers: fc.constantFrom(1, 8),
  maxWait: fc.constantFrom(0, 1, 5),
});

function runCore(source: string, limits: Parameters<typeof runModuleSafely>[2]): string[] {
  const { module } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
  if (module === null) return [];
  verifyModule(module, CORE_HOST_FUNCTIONS);
  return runModuleSafely(module, CORE_HOST_FUNCTIONS, limits);
}

describe('programs from the grammar', () => {
  it('mostly compile (the generator is worth its runs)', () => {
    const sample = fc.sample(corePrograms, { numRuns: 300, seed: 5 });
    const compiled = sample.filter((source) => compile(source, { hosts: CORE_HOST_FUNCTIONS }).module !== null);
    const errors = sample
      .map((source) => compile(source, { hosts: CORE_HOST_FUNCTIONS }).diagnostics.find((d) => d.severity === 'error')?.message)
      .filter((m) => m !== undefined);
    expect(compiled.length, `most common errors: ${[...new Set(errors)].slice(0, 5).join(' | ')}`).toBeGreaterThan(sample.length * 0.8);
  });

  it('cover the issue 11 language: map literals, templates, the math library and string/list/map methods, in programs that compile', () => {
    const compiled = fc.sample(corePrograms, { numRuns: 300, seed: 5 }).filter((source) => compile(source, { hosts: CORE_HOST_FUNCTIONS }).module !== null);
    const share = (pattern: RegExp) => compiled.filter((source) => pattern.test(source)).length;
    expect(share(/\(\{[^}]/)).toBeGreaterThan(compiled.length * 0.1); // a map literal with entries
    expect(share(/`t[^`]*\$\{/)).toBeGreaterThan(compiled.length * 0.1); // a template with a hole
    expect(share(/\bm\[[^\]]+\] = /)).toBeGreaterThan(compiled.length * 0.1); // a store into the map
    for (const call of ['atan2(', 'lerp(', 'clamp(', 'pi()', '.upper(', '.split(', '.join(', '.sort(', '.keys(', '.get(', '.has(']) {
      expect(share(new RegExp(call.replace(/[.()]/g, '\\$&'))), call).toBeGreaterThan(0);
    }
  });

  it('in a bare VM: finish or fail cleanly under small budgets', () => {
    checkProperty(
      'program/core-vm',
      fc.property(corePrograms, budgets, (source, limits) => {
        expect(runCore(source, limits), source).toEqual([]);
      }),
      2_500,
    );
  });

  it('in a world with the game host API: casts finish, wait or fail cleanly; the world goes on', () => {
    checkProperty(
      'program/world',
      fc.property(worldPrograms, budgets, (source, limits) => {
        expect(runInWorldSafely(source, { budgets: limits, ticks: 6 }), source).toEqual([]);
      }),
      800,
    );
  });
});

describe('regressions found by the program fuzzer', () => {
  it.each([
    ['a list nested 5,000 deep, printed and converted with str()', 'var l = []; for (var i = 0; i < 5000; i = i + 1) l = [l]; print len(str(l)); print l;'],
    ['a list that contains itself, printed', 'var l = [1]; l.append(l); print l; print str(l);'],
    ['for-in over a list that grows while iterating', 'var l = [1]; for (x in l) l.append(x);'],
    ['an init that returns early, then is called again', 'class A { init() { return; } } var a = A(); print a.init();'],
    ['a bound list method kept and called later', 'var l = []; var add = l.append; add(1); add(2); print l;'],
    ['unbounded recursion through a method', 'class A { m() { return this.m(); } } A().m();'],
  ])('%s', (_name, source) => {
    expect(runCore(source, { fuel: 1_000_000, maxFrames: 64, maxStack: 10_000, maxHeap: 1_000_000 })).toEqual([]);
  });
});
