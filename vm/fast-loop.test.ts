/**
 * Cast loops (vm/fast-loop.ts): a run through a loop must be indistinguishable
 * from a castFast of the same spell — outcome, result, message, budget, trace,
 * and a cast that waits resumes, cancels and snapshots like any other — while
 * the loop keeps one fiber of its own, entered without the trampoline.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import type { Budgets } from './budgets.js';
import { Debugger } from './debugger.js';
import type { FastLoop } from './fast-loop.js';
import type { Fiber } from './fiber.js';
import { restoreVm, saveVm, type VmSnapshot } from './fiber-snapshot.js';
import type { Value } from './value.js';
import { RUN_HOSTS, reentry, resetReentry } from './test-support/run-hosts.js';
import { VM } from './vm.js';

const HOSTS = RUN_HOSTS;

const SOURCE = `
  var counterFn = nil;
  spell plain(a, b) {
    var xs = [a, b, a + b];
    var t = 0;
    for (x in xs) t = t + x;
    return t;
  }
  spell failing(a, b) {
    var s = "left " + a;
    return s + nil;
  }
  fun napping(a) {
    var keep = [a, a * 2];
    return keep[0] + keep[1] + pause(a);
  }
  spell nap(a, b) { return napping(a) + b; }
  spell napHere(a, b) {
    var c = a;
    fun get() { return c + b; }
    c = c + pause(a);
    return get();
  }
  spell hungry(a, b) {
    var i = a;
    while (true) i = i + 1;
  }
  fun deep(n) { return deep(n + 1) + 1; }
  spell dive(a, b) { return deep(a); }
  spell counter(a, b) {
    var c = a;
    fun inc() { c = c + 1; return c; }
    counterFn = inc;
    return c;
  }
  spell bump(a, b) { return counterFn(); }
  spell outer(a, b) {
    var keep = [a];
    var r = keep[0] * 10 + reenter(a);
    return r + keep[0] + b;
  }
`;

function load(): VM {
  const { module, diagnostics } = compile(SOURCE, { hosts: HOSTS });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return new VM(module, { hosts: HOSTS, print: () => {} });
}

interface Ended {
  state: string;
  result: Value;
  message: string | null;
  limit: string | null;
  trace: string | null;
  fiber: Fiber | null;
}

function copy(out: ReturnType<VM['castFast']>): Ended {
  return {
    state: out.state,
    result: out.result,
    message: out.error?.message ?? null,
    limit: out.error?.limit ?? null,
    trace: out.error?.format() ?? null,
    fiber: out.fiber,
  };
}

const SPELLS = ['plain', 'failing', 'nap', 'napHere', 'hungry', 'dive', 'counter', 'bump'] as const;
const BUDGETS: Record<string, Partial<Budgets> | undefined> = { hungry: { fuel: 300 }, dive: { maxFrames: 40 } };

type Command =
  | { kind: 'cast'; spell: (typeof SPELLS)[number]; a: number; b: number; road: 'run' | 'unlessDone' | 'pair' }
  | { kind: 'resume'; pick: number; value: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'close'; spell: (typeof SPELLS)[number] };

const small = fc.integer({ min: -1000, max: 1000 });
const spell = fc.constantFrom(...SPELLS);
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('cast' as const), spell, a: small, b: small, road: fc.constantFrom('run' as const, 'unlessDone' as const, 'pair' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('resume' as const), pick: fc.nat(), value: small }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), spell }) },
);

describe('a cast loop', () => {
  it('runs every kind of cast, in any order, exactly as castFast does', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 40 }), (commands) => {
        // The same commands on two VMs: one through loops, one through castFast.
        const looped = load();
        const plain = load();
        const loops = new Map<string, FastLoop>();
        const loopOf = (name: string): FastLoop => {
          let loop = loops.get(name);
          if (loop === undefined) {
            loop = looped.castLoop(name, BUDGETS[name]);
            loops.set(name, loop);
          }
          return loop;
        };
        const waiting: { looped: Fiber; plain: Fiber }[] = [];
        for (const c of commands) {
          switch (c.kind) {
            case 'cast': {
              const loop = loopOf(c.spell);
              const b = copy(plain.castFast(c.spell, [c.a, c.b], BUDGETS[c.spell]));
              // runUnlessDone and runPairUnlessDone (a tick phase's roads): null exactly when the cast finished, else run's outcome.
              const quiet =
                c.road === 'unlessDone' ? loop.runUnlessDone([c.a, c.b]) : c.road === 'pair' ? loop.runPairUnlessDone(c.a, c.b) : undefined;
              if (quiet === null) {
                expect(b.state).toBe('done');
                expect(loop.fiber?.result ?? null).toBeNull();
                break;
              }
              const a = copy(quiet ?? loop.run([c.a, c.b]));
              expect({ ...a, fiber: a.fiber !== null }).toEqual({ ...b, fiber: b.fiber !== null });
              if (a.fiber !== null) waiting.push({ looped: a.fiber, plain: b.fiber! });
              break;
            }
            case 'resume': {
              if (waiting.length === 0) break;
              const [w] = waiting.splice(c.pick % waiting.length, 1);
              const a = looped.resume(w!.looped, c.value);
              const b = plain.resume(w!.plain, c.value);
              expect([a.state, a.result, a.error?.format() ?? null]).toEqual([b.state, b.result, b.error?.format() ?? null]);
              break;
            }
            case 'cancel': {
              if (waiting.length === 0) break;
              const [w] = waiting.splice(c.pick % waiting.length, 1);
              looped.cancel(w!.looped, 'Stopped.');
              plain.cancel(w!.plain, 'Stopped.');
              expect(w!.looped.error?.format()).toBe(w!.plain.error?.format());
              break;
            }
            case 'close':
              loops.get(c.spell)?.close();
              break;
          }
          expect(looped.liveFiberCount).toBe(plain.liveFiberCount);
        }
        for (const w of waiting) expect(looped.resume(w.looped, 1).result).toBe(plain.resume(w.plain, 1).result);
        for (const loop of loops.values()) loop.close();
        expect(looped.liveFiberCount).toBe(0);
        // Closed loops gave their storage back, cleared.
        expect(looped.fiberStorage.isClean()).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps one fiber between runs, and clears its stack only when closed', () => {
    const vm = load();
    const loop = vm.castLoop('plain');
    expect(loop.run([1, 2]).result).toBe(6);
    const fiber = loop.fiber!;
    expect(loop.run([3, 4]).result).toBe(14);
    expect(loop.fiber).toBe(fiber);
    // The last run's values are still on the loop's stack...
    expect(fiber.stack.some((v) => v !== null)).toBe(true);
    loop.close();
    // ...until close(): the fiber object went back to the pool as a spare, its storage cleared.
    expect(loop.fiber).toBeNull();
    expect(fiber.stack.every((v) => v === null)).toBe(true);
    expect(fiber.loopOwned).toBe(false);
    expect(vm.fiberStorage.isClean()).toBe(true);
    // A closed loop runs again (on the spare fiber object: a loop's fiber is not made anew for each batch).
    expect(loop.run([5, 6]).result).toBe(22);
    expect(loop.fiber).toBe(fiber);
    loop.close();
    expect(vm.fiberStorage.isClean()).toBe(true);
  });

  it('hands a waiting cast its fiber (with the trampoline frame every fiber has) and makes a new one', () => {
    const vm = load();
    const loop = vm.castLoop('napHere');
    const out = loop.run([3, 100]);
    expect(out.state).toBe('suspended');
    const waiting = out.fiber!;
    expect(loop.fiber).toBeNull();
    expect(waiting.frameClosures[0]!.fn.index).toBe(-1);
    expect(waiting.frameCount).toBe(2);
    // The loop goes on with a fiber of its own while the first cast waits.
    expect(loop.run([4, 1]).state).toBe('suspended');
    // The captured variable was open on the moved stack: it still is, one slot up.
    const resumed = vm.resume(waiting, 10);
    expect(resumed.state).toBe('done');
    expect(resumed.result).toBe(3 + 10 + 100);
  });

  it('saves a waiting cast it started with the VM and restores it to finish the same', () => {
    const straight = load();
    const s = straight.castLoop('nap').run([7, 1]);
    const expected = straight.resume(s.fiber!, 5).result;

    const vm = load();
    const out = vm.castLoop('nap').run([7, 1]);
    expect(out.state).toBe('suspended');
    const data = JSON.parse(JSON.stringify(saveVm(vm, [out.fiber!]))) as VmSnapshot;
    const fresh = load();
    fresh.runScript();
    const [restored] = restoreVm(fresh, data);
    expect(fresh.resume(restored!, 5).result).toBe(expected);
    expect(expected).toBe(7 + 14 + 5 + 1);
  });

  it('takes the general road when a host function runs the same loop again, and both runs end right', () => {
    const vm = load();
    const loop = vm.castLoop('outer');
    const inner = vm.castLoop('plain');
    let depth = 0;
    reentry.call = (n) => {
      depth++;
      try {
        if (depth > 1) return inner.run([n, 1]).result;
        // The outer loop is busy: this run takes castFast's road, on its own fiber.
        const nested = loop.run([n + 1, 0]);
        expect(nested.state).toBe('done');
        return nested.result;
      } finally {
        depth--;
      }
    };
    try {
      // outer(5, 2) = 50 + outer(6, 0) + 5 + 2, and outer(6, 0) = 60 + plain(6, 1) + 6 = 80.
      const out = loop.run([5, 2]);
      expect(out.state).toBe('done');
      expect(out.result).toBe(50 + 80 + 5 + 2);
      expect(vm.liveFiberCount).toBe(0);
    } finally {
      resetReentry();
      loop.close();
      inner.close();
    }
    expect(vm.fiberStorage.isClean()).toBe(true);
  });

  it('runs a pair without an array, and a pair for a spell of another arity fails as run does', () => {
    const vm = load();
    const loop = vm.castLoop('plain');
    // The first run makes the loop's fiber, on the general road: it reports a finished cast as run does.
    expect(loop.runPairUnlessDone(5, 6)?.state).toBe('done');
    expect(loop.runPairUnlessDone(1, 2)).toBeNull();
    // The result was dropped, and the loop kept its fiber.
    expect(loop.fiber!.result).toBeNull();
    expect(loop.run([3, 4]).result).toBe(14);
    const failing = loop.runPairUnlessDone('a', 2);
    expect(failing?.state).toBe('failed');
    expect(failing?.error?.message).toBe(vm.castFast('plain', ['a', 2]).error?.message);
    loop.close();

    const { module } = compile('spell one(a) { return a; }', { hosts: HOSTS });
    const single = new VM(module!, { hosts: HOSTS });
    const pair = single.castLoop('one').runPairUnlessDone(1, 2);
    expect(pair?.error?.message).toBe('Expected 1 arguments but got 2.');
    expect(single.liveFiberCount).toBe(0);
  });

  it('runs loops of several VMs in turn, each on its own VM (one Runner class serves them all)', () => {
    const first = load();
    const { module } = compile('var k = 100; spell plain(a, b) { return a * b + k; }', { hosts: HOSTS });
    const second = new VM(module!, { hosts: HOSTS });
    const a = first.castLoop('plain');
    const b = second.castLoop('plain');
    for (let i = 0; i < 5; i++) {
      expect(a.run([i, 2]).result).toBe(2 * (i + 2));
      expect(b.run([i, 2]).result).toBe(i * 2 + 100);
      expect(a.runPairUnlessDone(i, 1)).toBeNull();
      expect(b.runUnlessDone([i, 3])).toBeNull();
    }
    a.close();
    b.close();
    expect(first.liveFiberCount + second.liveFiberCount).toBe(0);
    expect(first.fiberStorage.isClean() && second.fiberStorage.isClean()).toBe(true);
  });

  it('fails as castFast does for an unknown spell, a wrong argument count, and with a debugger attached pauses', () => {
    const vm = load();
    expect(vm.castLoop('nope').run([]).error?.message).toBe(vm.castFast('nope', []).error?.message);
    const loop = vm.castLoop('plain');
    expect(loop.run([1]).error?.message).toBe('Expected 2 arguments but got 1.');
    expect(loop.run([1, 2]).result).toBe(6);

    const { module } = compile('spell f(a) {\n  var b = a + 1;\n  return b * 2;\n}\n', { hosts: HOSTS });
    const dvm = new VM(module!, { hosts: HOSTS });
    const debugged = dvm.castLoop('f');
    expect(debugged.run([1]).result).toBe(4);
    const dbg = new Debugger(dvm);
    dbg.attach();
    dbg.setBreakpoints([3]);
    const out = debugged.run([4]);
    expect(out.state).toBe('paused');
    expect(dbg.continue(out.fiber!).result).toBe(10);
    dbg.detach();
    expect(debugged.run([2]).result).toBe(6);
    debugged.close();
    expect(dvm.liveFiberCount).toBe(0);
  });
});
