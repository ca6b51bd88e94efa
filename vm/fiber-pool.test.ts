/**
 * The pooled path: fibers' stacks and frames are lent by the VM's
 * FiberStoragePool and come back when a run finishes. Runs that finish,
 * fail, run out of a budget or suspend, in any order and through any entry
 * (call, callFast, cast, castFast), must each behave as on a fresh fiber,
 * and the pool must never hold a value of an old run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { Debugger } from './debugger.js';
import { Fiber } from './fiber.js';
import { DEFAULT_BUDGETS } from './budgets.js';
import type { Budgets } from './budgets.js';
import type { Value } from './value.js';
import { RUN_HOSTS, reentry, resetReentry } from './test-support/run-hosts.js';
import { VM } from './vm.js';

const HOSTS = RUN_HOSTS;

const SOURCE = `
  var counterFn = nil;
  fun plain(a, b) {
    var xs = [a, b, a + b];
    var t = 0;
    for (x in xs) t = t + x;
    return t;
  }
  fun failing(a) {
    var s = "left " + a;
    return s + nil;
  }
  fun napping(a) {
    var keep = [a, a * 2];
    return keep[0] + keep[1] + pause(a);
  }
  fun hungry(n) {
    var i = n;
    while (true) i = i + 1;
  }
  fun deep(n) { return deep(n + 1) + 1; }
  fun makeCounter(start) {
    var c = start;
    fun inc() { c = c + 1; return c; }
    counterFn = inc;
    return c;
  }
  fun bump(unused) { return counterFn(); }
  fun outer(a) {
    var keep = [a];
    var r = keep[0] * 10 + reenter(a);
    return r + keep[0];
  }
  spell cast_plain(a, b) { return plain(a, b); }
  spell cast_failing(a) { return failing(a); }
  spell cast_napping(a) { return napping(a); }
  spell cast_hungry(n) { return hungry(n); }
  spell cast_deep(n) { return deep(n); }
  spell cast_makeCounter(start) { return makeCounter(start); }
  spell cast_bump(unused) { return bump(unused); }
  spell cast_outer(a) { return outer(a); }
`;

function load(): VM {
  const { module, diagnostics } = compile(SOURCE, { hosts: HOSTS });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return new VM(module, { hosts: HOSTS, print: () => {} });
}

type Via = 'call' | 'callFast' | 'cast' | 'castFast';

interface Ended {
  state: 'done' | 'failed' | 'suspended' | 'paused';
  result: Value;
  message: string | null;
  limit: string | null;
  /** The fiber that goes on, or (for call/cast) the finished fiber handle. */
  fiber: Fiber | null;
}

/** Run `fn` through one of the four entries and say how it ended. */
function runVia(vm: VM, via: Via, fn: string, args: Value[], budgets?: Partial<Budgets>): Ended {
  if (via === 'call' || via === 'cast') {
    const fiber = via === 'call' ? vm.call(fn, args, budgets) : vm.cast(`cast_${fn}`, args, budgets);
    const state = fiber.state === 'running' ? 'failed' : fiber.state;
    return { state, result: fiber.result, message: fiber.error?.message ?? null, limit: fiber.error?.limit ?? null, fiber };
  }
  const out = via === 'callFast' ? vm.callFast(fn, args, budgets) : vm.castFast(`cast_${fn}`, args, budgets);
  return { state: out.state, result: out.result, message: out.error?.message ?? null, limit: out.error?.limit ?? null, fiber: out.fiber };
}

type Command =
  | { kind: 'plain'; via: Via; a: number; b: number }
  | { kind: 'failing'; via: Via; a: number }
  | { kind: 'napping'; via: Via; a: number }
  | { kind: 'hungry'; via: Via }
  | { kind: 'deep'; via: Via }
  | { kind: 'counter'; via: Via; start: number }
  | { kind: 'bump'; via: Via }
  | { kind: 'resume'; pick: number; value: number }
  | { kind: 'cancel'; pick: number };

const via = fc.constantFrom<Via>('call', 'callFast', 'cast', 'castFast');
const small = fc.integer({ min: -1000, max: 1000 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('plain' as const), via, a: small, b: small }),
  fc.record({ kind: fc.constant('failing' as const), via, a: small }),
  fc.record({ kind: fc.constant('napping' as const), via, a: small }),
  fc.record({ kind: fc.constant('hungry' as const), via }),
  fc.record({ kind: fc.constant('deep' as const), via }),
  fc.record({ kind: fc.constant('counter' as const), via, start: small }),
  fc.record({ kind: fc.constant('bump' as const), via }),
  fc.record({ kind: fc.constant('resume' as const), pick: fc.nat(), value: small }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
);

/** What the model expects of the fibers that wait. */
interface Napping {
  fiber: Fiber;
  a: number;
}

function expectFinishedHoldsNothing(ended: Ended): void {
  // A finished fiber handle keeps no storage (its stack went back to the pool).
  if (ended.fiber !== null && (ended.state === 'done' || ended.state === 'failed')) {
    expect(ended.fiber.stack.length).toBe(0);
    expect(ended.fiber.openUpvalues).toBeNull();
  }
}

describe('the pooled fiber path', () => {
  it('runs plain, failing, suspending and budget-exhausting calls in any order as a model says, leaving no dirty stack', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 40 }), (commands) => {
        const vm = load();
        const napping: Napping[] = [];
        let counter: number | null = null;
        for (const c of commands) {
          let ended: Ended | null = null;
          switch (c.kind) {
            case 'plain':
              ended = runVia(vm, c.via, 'plain', [c.a, c.b]);
              expect(ended.state).toBe('done');
              expect(ended.result).toBe(2 * (c.a + c.b));
              break;
            case 'failing':
              ended = runVia(vm, c.via, 'failing', [c.a]);
              expect(ended.state).toBe('failed');
              expect(ended.message).toBe('Operands must be two numbers or two strings.');
              break;
            case 'napping':
              ended = runVia(vm, c.via, 'napping', [c.a]);
              expect(ended.state).toBe('suspended');
              expect(ended.fiber).not.toBeNull();
              napping.push({ fiber: ended.fiber!, a: c.a });
              break;
            case 'hungry':
              ended = runVia(vm, c.via, 'hungry', [0], { fuel: 300 });
              expect(ended.state).toBe('failed');
              expect(ended.limit).toBe('fuel');
              break;
            case 'deep':
              ended = runVia(vm, c.via, 'deep', [0], { maxFrames: 40 });
              expect(ended.state).toBe('failed');
              expect(ended.message).toBe('Stack overflow.');
              break;
            case 'counter':
              ended = runVia(vm, c.via, 'makeCounter', [c.start]);
              expect(ended.result).toBe(c.start);
              counter = c.start;
              break;
            case 'bump':
              ended = runVia(vm, c.via, 'bump', [0]);
              if (counter === null) {
                expect(ended.state).toBe('failed');
                expect(ended.message).toBe('Can only call functions and classes.');
              } else {
                // The captured variable was closed when makeCounter's run ended: pooled reuse cannot touch it.
                counter++;
                expect(ended.result).toBe(counter);
              }
              break;
            case 'resume': {
              if (napping.length === 0) break;
              const [nap] = napping.splice(c.pick % napping.length, 1);
              const fiber = vm.resume(nap!.fiber, c.value);
              expect(fiber.state).toBe('done');
              // Its stack (the partial sum, the list local) survived every run in between.
              expect(fiber.result).toBe(3 * nap!.a + c.value);
              expect(fiber.stack.length).toBe(0);
              break;
            }
            case 'cancel': {
              if (napping.length === 0) break;
              const [nap] = napping.splice(c.pick % napping.length, 1);
              vm.cancel(nap!.fiber, 'Stopped.');
              expect(nap!.fiber.state).toBe('failed');
              expect(nap!.fiber.stack.length).toBe(0);
              break;
            }
          }
          if (ended) expectFinishedHoldsNothing(ended);
          expect(vm.liveFiberCount).toBe(napping.length);
          expect(vm.fiberStorage.isClean()).toBe(true);
        }
        for (const nap of napping) expect(vm.resume(nap.fiber, 1).result).toBe(3 * nap.a + 1);
        expect(vm.liveFiberCount).toBe(0);
        expect(vm.fiberStorage.isClean()).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('reuses storage: a spare fiber keeps its own; a handle’s goes back to the pool, cleared', () => {
    const vm = load();
    expect(vm.callFast('plain', [1, 2]).result).toBe(6);
    expect(vm.callFast('plain', [3, 4]).result).toBe(14);
    // The fast runs' spare fiber keeps its storage between runs: nothing went to the shared pool.
    expect(vm.fiberStorage.pooled).toBe(0);
    const handle = vm.call('plain', [5, 6]);
    expect(handle.result).toBe(22);
    expect(handle.stack.length).toBe(0);
    expect(vm.fiberStorage.pooled).toBe(1);
    expect(vm.call('plain', [1, 1]).result).toBe(4);
    expect(vm.fiberStorage.pooled).toBe(1);
    // A suspended fast run is handed over with its storage; the next fast run gets another fiber,
    // and the pooled storage. When the handed-over fiber ends, its storage joins the pool.
    const nap = vm.castFast('cast_napping', [2]);
    expect(nap.state).toBe('suspended');
    const waiting = nap.fiber!;
    expect(vm.callFast('plain', [1, 1]).result).toBe(4);
    expect(vm.fiberStorage.pooled).toBe(0);
    expect(vm.resume(waiting, 10).result).toBe(16);
    expect(waiting.stack.length).toBe(0);
    expect(vm.fiberStorage.pooled).toBe(1);
    expect(vm.fiberStorage.isClean()).toBe(true);
  });

  it('gives every fast run fresh budgets: fuel, heap and output do not add up across reused fibers', () => {
    const { module } = compile(
      'fun talk(n) { print "0123456789"; var l = [n, n, n, n]; var i = 0; while (i < 20) i = i + 1; return len(l); }',
      { hosts: HOSTS },
    );
    const printed: string[] = [];
    const vm = new VM(module!, { hosts: HOSTS, print: (t) => printed.push(t), maxOutput: 50, maxHeap: 40, fuel: 2000 });
    // Each run prints 11 characters, allocates a small list and runs a short loop: well within each
    // budget once, far beyond all of them summed over 30 runs.
    for (let i = 0; i < 30; i++) {
      const out = i % 2 === 0 ? vm.callFast('talk', [i]) : vm.castFast('nope', []);
      if (i % 2 === 0) expect([i, out.state, out.error?.message ?? null]).toEqual([i, 'done', null]);
    }
    expect(printed).toHaveLength(15);
    // The limits still bite within one run.
    const { module: loud } = compile('fun shout() { while (true) print "0123456789"; }', { hosts: HOSTS });
    const vm2 = new VM(loud!, { hosts: HOSTS, print: () => {}, maxOutput: 50, fuel: Infinity });
    expect(vm2.callFast('shout', []).error?.limit).toBe('output');
    expect(vm2.callFast('shout', []).error?.limit).toBe('output');
  });

  it('a reset fiber equals a new one in every field but its storage (a new per-run field must be reset too)', () => {
    const budgets = { ...DEFAULT_BUDGETS, fuel: 77 };
    const used = new Fiber(DEFAULT_BUDGETS, 'old', 'call');
    // Dirty every field a run could change.
    for (const key of Object.keys(used) as (keyof Fiber)[]) {
      const value = used[key];
      if (typeof value === 'number') (used as unknown as Record<string, unknown>)[key] = value + 5;
      else if (typeof value === 'boolean') (used as unknown as Record<string, unknown>)[key] = !value;
      else if (value === null || value === undefined) (used as unknown as Record<string, unknown>)[key] = 'dirty';
    }
    used.state = 'failed';
    used.reset(budgets, 'spell', 'cast');
    const fresh = new Fiber(budgets, 'spell', 'cast');
    // Storage and who owns it (the pool, a FastLoop) are not per-run state.
    const storage = new Set(['stack', 'frameClosures', 'frameIps', 'frameBases', 'poolOwned', 'loopOwned']);
    const fields = (f: Fiber): Record<string, unknown> =>
      Object.fromEntries(Object.entries(f).filter(([key]) => !storage.has(key)));
    expect(fields(used)).toEqual(fields(fresh));
  });

  it('grows a pooled stack for a deep run and cuts it back when it returns', () => {
    const vm = load();
    const deep = vm.callFast('deep', [0], { maxFrames: 3000, maxStack: 100_000 });
    expect(deep.error?.message).toBe('Stack overflow.');
    expect(vm.callFast('plain', [1, 2]).result).toBe(6);
    expect(vm.fiberStorage.isClean()).toBe(true);
  });

  it('reports unknown functions and spells, and a failing script, in the outcome', () => {
    const vm = load();
    expect(vm.callFast('nope', []).error?.message).toBe("Undefined variable 'nope'.");
    expect(vm.castFast('nope', []).error?.message).toBe("Undefined spell 'nope'.");
    expect(vm.castFast('nope', []).fiber).toBeNull();
    const { module } = compile('var x = nil + 1; fun f() { return 1; }', { hosts: HOSTS });
    const broken = new VM(module!, { hosts: HOSTS });
    const out = broken.callFast('f', []);
    expect(out.state).toBe('failed');
    expect(out.error?.message).toBe('Operands must be two numbers or two strings.');
  });

  it('refuses a fast run beyond maxFibers, as cast does', () => {
    const vm = load();
    const first = vm.castFast('cast_napping', [1], { maxFibers: 1 }).fiber!;
    const refused = vm.castFast('cast_napping', [1], { maxFibers: 1 });
    expect(refused.state).toBe('failed');
    expect(refused.error?.limit).toBe('fibers');
    expect(vm.liveFiberCount).toBe(1);
    vm.resume(first, 0);
    expect(vm.liveFiberCount).toBe(0);
  });

  it('hands a paused fiber over, and never reuses fiber objects while a debugger is attached', () => {
    const { module } = compile('fun f(a) {\n  var b = a + 1;\n  return b * 2;\n}\n', { hosts: HOSTS });
    const vm = new VM(module!, { hosts: HOSTS });
    const dbg = new Debugger(vm);
    dbg.attach();
    dbg.setBreakpoints([3]);
    const out = vm.callFast('f', [4]);
    expect(out.state).toBe('paused');
    const paused = out.fiber!;
    expect(dbg.callStack(paused)[0]!.locals).toEqual([
      { name: 'a', value: '4' },
      { name: 'b', value: '5' },
    ]);
    // Another run meanwhile: its own fiber, its own storage.
    const other = vm.callFast('f', [1]);
    expect(other.state).toBe('paused');
    expect(other.fiber).not.toBe(paused);
    const otherFiber = other.fiber!;
    expect(dbg.continue(paused).result).toBe(10);
    expect(dbg.continue(otherFiber).result).toBe(4);
    dbg.detach();
    expect(vm.callFast('f', [2]).result).toBe(6);
    expect(vm.liveFiberCount).toBe(0);
    expect(vm.fiberStorage.isClean()).toBe(true);
  });
});

describe('re-entrancy: a host function that calls back into the VM', () => {
  it('runs nested calls and casts while a run is in progress, on their own storage', () => {
    const vm = load();
    const nested: Fiber[] = [];
    reentry.call = (n) => {
      // callFast reuses the VM's one outcome: the outer run's report is written after this returns.
      const a = vm.callFast('plain', [n, 1]).result as number;
      const b = vm.call('plain', [n, 2]).result as number;
      const c = vm.castFast('cast_plain', [n, 3]).result as number;
      const failed = vm.callFast('failing', [n]);
      expect(failed.state).toBe('failed');
      const nap = vm.castFast('cast_napping', [n]);
      nested.push(nap.fiber!);
      return a + b + c;
    };
    try {
      for (const entry of ['call', 'callFast', 'cast', 'castFast'] as const) {
        const ended = runVia(vm, entry, 'outer', [5]);
        // keep[0] * 10 + (12 + 14 + 16) + keep[0]: the outer stack is intact after the nested runs.
        expect(ended.state).toBe('done');
        expect(ended.result).toBe(50 + 42 + 5);
      }
      expect(nested).toHaveLength(4);
      expect(vm.liveFiberCount).toBe(4);
      for (const fiber of nested) expect(vm.resume(fiber, 1).result).toBe(16);
      expect(vm.liveFiberCount).toBe(0);
      expect(vm.fiberStorage.isClean()).toBe(true);
    } finally {
      resetReentry();
    }
  });

  it('a nested run that fails or runs out of fuel ends only itself', () => {
    const vm = load();
    reentry.call = (n) => {
      expect(vm.callFast('hungry', [n], { fuel: 200 }).error?.limit).toBe('fuel');
      expect(vm.call('deep', [n], { maxFrames: 20 }).error?.message).toBe('Stack overflow.');
      return 1;
    };
    try {
      expect(vm.callFast('outer', [2]).result).toBe(20 + 1 + 2);
      expect(vm.fiberStorage.isClean()).toBe(true);
    } finally {
      resetReentry();
    }
  });
});
