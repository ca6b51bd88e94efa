/**
 * A cast loop's batch (FastLoop.runPairInBatch): between two runs the loop
 * holds its fiber open, and a compiled spell is entered through its loop
 * entry (ObjFunction.loopEntry). Every run must still be indistinguishable
 * from a castFast of the same spell — outcome, result, message, budget,
 * trace, waits that resume, the VM's count of live fibers — on the
 * interpreter, compiled, and under auto (the spell changing tier between two
 * runs of a batch).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import type { Budgets } from './budgets.js';
import { Debugger } from './debugger.js';
import type { FastLoop } from './fast-loop.js';
import type { Fiber } from './fiber.js';
import type { Value } from './value.js';
import { RUN_HOSTS, reentry, resetReentry } from './test-support/run-hosts.js';
import { VM, type Tier } from './vm.js';
import { forgetCompiledCode } from './compiled/compile.js';

const SOURCE = `
  spell plain(a, b) { var xs = [a, b]; return xs[0] * 2 + xs[1]; }
  spell failing(a, b) {
    var s = "left " + str(a);
    if (a > b) return s + nil;
    return a - b;
  }
  spell spend(a, b) {
    var i = 0;
    while (i < a) i = i + 1;
    return i + b;
  }
  fun napping(a) { return a + pause(a); }
  spell nap(a, b) {
    if (a % 3 == 0) return napping(a) + b;
    return a + b;
  }
  spell refuse(a, b) {
    var v = [a, "x"];
    if (a > b) return pause(v[1]);
    return pause(v[0]) * 0;
  }
  fun deep(n) { if (n <= 0) return 0; return deep(n - 1) + 1; }
  spell dive(a, b) { return deep(a % 60); }
  spell outer(a, b) { return reenter(a) + b; }
`;

const SPELLS = ['plain', 'failing', 'spend', 'nap', 'refuse', 'dive'] as const;
const BUDGETS: Record<string, Partial<Budgets> | undefined> = { spend: { fuel: 300 }, dive: { maxFrames: 40 }, nap: { maxFibers: 3 } };

function load(tier: Tier): VM {
  const { module, diagnostics } = compile(SOURCE, { hosts: RUN_HOSTS });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return new VM(module, { hosts: RUN_HOSTS, print: () => {}, tier });
}

/** What a run reported, for comparing with castFast's (the fiber compared apart). */
const ended = (out: ReturnType<VM['castFast']>): { state: string; result: Value; message: string | null; limit: string | null; trace: string | null } => ({
  state: out.state,
  result: out.result,
  message: out.error?.message ?? null,
  limit: out.error?.limit ?? null,
  trace: out.error?.format() ?? null,
});

type Command =
  | { kind: 'cast'; spell: (typeof SPELLS)[number]; a: number; b: number; road: 'batch' | 'run' | 'pair' }
  | { kind: 'resume'; pick: number; value: number }
  | { kind: 'close'; spell: (typeof SPELLS)[number] };

const small = fc.integer({ min: -50, max: 400 });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('cast' as const),
      spell: fc.constantFrom(...SPELLS),
      a: small,
      b: small,
      road: fc.constantFrom('batch' as const, 'batch' as const, 'batch' as const, 'run' as const, 'pair' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('resume' as const), pick: fc.nat(), value: small }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), spell: fc.constantFrom(...SPELLS) }) },
);

const holding = (loops: Iterable<FastLoop>): number => [...loops].filter((l) => l.holding).length;

describe('a cast loop batch', () => {
  it.each(['interpreter', 'compiled', 'auto'] as const)('runs every kind of cast, in any order, exactly as castFast does (%s)', (tier) => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 60 }), (commands) => {
        const looped = load(tier);
        const plain = load(tier);
        const loops = new Map<string, FastLoop>();
        const loopOf = (name: string): FastLoop => {
          let loop = loops.get(name);
          if (loop === undefined) loops.set(name, (loop = looped.castLoop(name, BUDGETS[name])));
          return loop;
        };
        const waiting: { looped: Fiber; plain: Fiber }[] = [];
        for (const c of commands) {
          if (c.kind === 'cast') {
            const loop = loopOf(c.spell);
            const b = plain.castFast(c.spell, [c.a, c.b], BUDGETS[c.spell]);
            const bEnded = ended(b);
            const bFiber = b.fiber;
            const quiet = c.road === 'batch' ? loop.runPairInBatch(c.a, c.b) : c.road === 'pair' ? loop.runPairUnlessDone(c.a, c.b) : undefined;
            if (quiet === null) {
              // Finished: its result dropped, as runPairUnlessDone drops it.
              expect(bEnded.state).toBe('done');
              expect(loop.fiber?.result ?? null).toBeNull();
            } else {
              const a = quiet ?? loop.run([c.a, c.b]);
              const aFiber = a.fiber;
              expect(ended(a)).toEqual(bEnded);
              expect(aFiber !== null).toBe(bFiber !== null);
              if (aFiber !== null) waiting.push({ looped: aFiber, plain: bFiber! });
            }
          } else if (c.kind === 'resume') {
            if (waiting.length === 0) continue;
            const [w] = waiting.splice(c.pick % waiting.length, 1);
            const a = looped.resume(w!.looped, c.value);
            const b = plain.resume(w!.plain, c.value);
            expect([a.state, a.result, a.error?.format() ?? null]).toEqual([b.state, b.result, b.error?.format() ?? null]);
          } else {
            loops.get(c.spell)?.close();
          }
          // A held fiber is counted live only while it runs: the counts agree between runs.
          expect(looped.liveFiberCount).toBe(plain.liveFiberCount);
        }
        for (const w of waiting) expect(looped.resume(w.looped, 1).result).toBe(plain.resume(w.plain, 1).result);
        for (const loop of loops.values()) loop.close();
        expect(holding(loops.values())).toBe(0);
        expect(looped.liveFiberCount).toBe(0);
        expect(looped.fiberStorage.isClean()).toBe(true);
      }),
      { numRuns: tier === 'auto' ? 60 : 100 },
    );
  });

  it('holds its fiber and enters a compiled spell through its loop entry; on the interpreter it never holds', () => {
    const compiled = load('compiled');
    const loop = compiled.castLoop('plain');
    // The first run makes the loop's fiber (the general road reports it); the second holds it after it finishes.
    expect(loop.runPairInBatch(1, 2)?.result).toBe(4);
    expect(loop.runPairInBatch(3, 4)).toBeNull();
    expect(loop.holding).toBe(true);
    const fn = compiled.runtimeFunctions.find((f) => f.name === 'plain')!;
    expect(fn.loopEntry).not.toBeNull();
    expect(loop.fiber!.live).toBe(true);
    expect(compiled.liveFiberCount).toBe(0);
    for (let i = 0; i < 20; i++) expect(loop.runPairInBatch(i, 1)).toBeNull();
    expect(loop.holding).toBe(true);
    // Any other kind of run lets go first, and reports as always.
    expect(loop.run([5, 6]).result).toBe(16);
    expect(loop.holding).toBe(false);
    expect(compiled.liveFiberCount).toBe(0);
    expect(loop.runPairInBatch(1, 1)).toBeNull();
    expect(loop.holding).toBe(true);
    loop.close();
    expect(loop.holding).toBe(false);
    expect(compiled.liveFiberCount).toBe(0);
    expect(compiled.fiberStorage.isClean()).toBe(true);
    expect(compiled.compileFailures).toEqual([]);

    // Under auto the spell runs on the interpreter until it is hot, then the batch holds its fiber.
    // (The process forgets the code compiled above first: a new VM would run it compiled from its first call.)
    forgetCompiledCode();
    const auto = load('auto');
    const warming = auto.castLoop('spend', BUDGETS.spend);
    const heldAt: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const out = warming.runPairInBatch(i % 7, i);
      if (out !== null) expect(ended(out)).toEqual(ended(auto.castFast('spend', [i % 7, i], BUDGETS.spend)));
      if (warming.holding) heldAt.push(i);
    }
    expect(heldAt.length).toBeGreaterThan(0);
    expect(heldAt[0]).toBeGreaterThan(2);
    warming.close();
    expect(auto.liveFiberCount).toBe(0);

    const interpreted = load('interpreter');
    const slow = interpreted.castLoop('plain');
    for (let i = 0; i < 5; i++) slow.runPairInBatch(i, 1);
    expect(slow.holding).toBe(false);
    expect(interpreted.runtimeFunctions.every((f) => f.loopEntry === null)).toBe(true);
    slow.close();
  });

  it('fails in the middle of a batch as castFast does (fuel, a fault, a refused argument, the frame budget), and holds again after', () => {
    for (const tier of ['compiled', 'interpreter'] as const) {
      const vm = load(tier);
      const plain = load(tier);
      const cases: [(typeof SPELLS)[number], number, number][] = [
        ['spend', 5, 1],
        ['spend', 5, 2],
        ['spend', 1000, 0],
        ['spend', 6, 0],
        ['failing', 1, 2],
        ['failing', 3, 2],
        ['failing', 1, 5],
        ['refuse', 9, 1],
        ['dive', 10, 0],
        ['dive', 50, 0],
        ['dive', 3, 0],
      ];
      const loops = new Map<string, FastLoop>();
      for (const [spell, a, b] of [...cases, ...cases]) {
        const loop = loops.get(spell) ?? vm.castLoop(spell, BUDGETS[spell]);
        loops.set(spell, loop);
        const expected = ended(plain.castFast(spell, [a, b], BUDGETS[spell]));
        const out = loop.runPairInBatch(a, b);
        if (out === null) expect(expected.state).toBe('done');
        else expect(ended(out)).toEqual(expected);
        // A failure ends the hold; the next run that finishes (on the compiled tier) takes it again.
        if (expected.state === 'failed') expect(loop.holding).toBe(false);
        else if (out === null) expect(loop.holding).toBe(tier === 'compiled');
        expect(vm.liveFiberCount).toBe(0);
      }
      for (const loop of loops.values()) loop.close();
      expect(vm.liveFiberCount).toBe(0);
      expect(vm.fiberStorage.isClean()).toBe(true);
    }
  });

  it('a cast that waits takes its fiber with it; the batch makes another and holds it; the waiting cast resumes right', () => {
    for (const tier of ['compiled', 'interpreter'] as const) {
      const vm = load(tier);
      const loop = vm.castLoop('nap', BUDGETS.nap);
      expect(loop.runPairInBatch(1, 1)?.state).toBe('done');
      expect(loop.runPairInBatch(2, 1)).toBeNull();
      const held = loop.fiber;
      const out = loop.runPairInBatch(6, 100);
      expect(out?.state).toBe('suspended');
      const waiting = out!.fiber!;
      if (tier === 'compiled') expect(waiting).toBe(held);
      expect(loop.fiber).toBeNull();
      expect(loop.holding).toBe(false);
      // The trampoline frame every waiting fiber has, then the spell's frames.
      expect(waiting.frameClosures[0]!.fn.index).toBe(-1);
      expect(loop.runPairInBatch(4, 1)?.state).toBe('done');
      expect(loop.runPairInBatch(4, 1)).toBeNull();
      expect(loop.holding).toBe(tier === 'compiled');
      expect(vm.resume(waiting, 10).result).toBe(6 + 10 + 100);
      // maxFibers 3: three waiting casts fill it (the held fiber counts only while it runs); the next run fails as castFast would.
      const waits: Fiber[] = [];
      for (const a of [3, 9, 12]) {
        waits.push(loop.runPairInBatch(a, 0)!.fiber!);
        if (waits.length === 3) break;
        // The wait took the loop's fiber: a new one is made (the general road reports the run), then held.
        expect(loop.runPairInBatch(4, 0)?.state).toBe('done');
        expect(loop.runPairInBatch(4, 0)).toBeNull();
      }
      expect(vm.liveFiberCount).toBe(3);
      const refused = loop.runPairInBatch(4, 0);
      expect(refused?.state).toBe('failed');
      expect(refused?.error?.message).toBe(load(tier).castFast('nap', [4, 0], { maxFibers: 0 }).error?.message.replace('0', '3'));
      expect(loop.holding).toBe(false);
      for (const w of waits) vm.resume(w, 1);
      // The third wait took the loop's fiber: a new one, then held.
      expect(loop.runPairInBatch(4, 0)?.state).toBe('done');
      expect(loop.runPairInBatch(4, 0)).toBeNull();
      expect(loop.holding).toBe(tier === 'compiled');
      loop.close();
      expect(vm.liveFiberCount).toBe(0);
      expect(vm.fiberStorage.isClean()).toBe(true);
    }
  });

  it('a host function that runs the same batch again during a held run takes the general road, and both end right', () => {
    const vm = load('compiled');
    const loop = vm.castLoop('outer');
    let depth = 0;
    reentry.call = (n) => {
      if (depth > 0) return n;
      depth++;
      try {
        const nested = loop.runPairInBatch(n + 1, 0);
        // The held fiber is the outer run's: the nested run went through castFast, which reports its result.
        expect(nested?.state).toBe('done');
        return nested!.result;
      } finally {
        depth--;
      }
    };
    try {
      loop.runPairInBatch(1, 1);
      expect(loop.runPairInBatch(1, 1)).toBeNull();
      expect(loop.holding).toBe(true);
      expect(loop.runPairInBatch(5, 2)).toBeNull();
      expect(loop.holding).toBe(true);
      expect(vm.liveFiberCount).toBe(0);
    } finally {
      resetReentry();
      loop.close();
    }
    expect(vm.liveFiberCount).toBe(0);
    expect(vm.fiberStorage.isClean()).toBe(true);
  });

  it('a debugger attached between two runs of a batch pauses the next one; detached, the batch holds and enters compiled code again', () => {
    const { module } = compile('spell f(a, b) {\n  var c = a + b;\n  return c * 2;\n}\n', { hosts: RUN_HOSTS });
    const vm = new VM(module!, { hosts: RUN_HOSTS, tier: 'compiled' });
    const loop = vm.castLoop('f');
    loop.runPairInBatch(1, 1);
    expect(loop.runPairInBatch(1, 1)).toBeNull();
    expect(loop.holding).toBe(true);
    const dbg = new Debugger(vm);
    dbg.attach();
    dbg.setBreakpoints([3]);
    const out = loop.runPairInBatch(4, 1);
    expect(out?.state).toBe('paused');
    expect(loop.holding).toBe(false);
    expect(dbg.continue(out!.fiber!).result).toBe(10);
    dbg.detach();
    // The paused cast went through castFast (a debugger's fibers are its own): the loop kept its fiber.
    expect(loop.runPairInBatch(2, 1)).toBeNull();
    expect(loop.holding).toBe(true);
    loop.close();
    expect(vm.liveFiberCount).toBe(0);
  });
});
