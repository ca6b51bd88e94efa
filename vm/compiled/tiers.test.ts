/**
 * The compiled tier behaves exactly as the interpreter: the same printed
 * output, results, errors with their lines and traces, the fuel left when a
 * run ends (so fuel runs out at the same instruction), the heap charged, and
 * the same depth of stack overflow. Checked on every spell of the corpus and
 * on programs made to reach each path; generated programs and mutated
 * bytecode are tests/fuzz/tier-differential.test.ts's.
 */

import { describe, expect, it, vi } from 'vitest';
import { compile } from '../../compiler/index.js';
import { spellCorpus } from '../../tests/fuzz/corpus.js';
import type { Budgets } from '../budgets.js';
import type { Fiber } from '../fiber.js';
import { CORE_HOST_FUNCTIONS } from '../builtins.js';
import type { Module } from '../module.js';
import { VM, type Tier } from '../vm.js';
import { canCompile, compiledSource, forgetCompileCheck, forgetCompiledCode } from './compile.js';
import { saveVm } from '../fiber-snapshot.js';
import { RUN_HOSTS } from '../test-support/run-hosts.js';
import { describeFiber, sameOnEveryTier, transcript } from '../../tests/fuzz/tier-transcript.js';

const HOSTS = RUN_HOSTS;

function sameInBothTiers(module: Module, budgets: Partial<Budgets>): void {
  sameOnEveryTier(module, budgets);
}

/** Cast `go(arg)`, saving the VM at each wait and resuming it: what was printed, the snapshots, the end. */
function castThroughWaits(module: Module, tier: Tier, arg: number, fuel?: number): { lines: string[]; vm: VM } {
  const lines: string[] = [];
  const vm = new VM(module, { hosts: HOSTS, print: (text) => lines.push(text), tier, ...(fuel === undefined ? {} : { fuel }) });
  vm.runScript();
  const fiber = vm.cast('go', [arg]);
  for (let k = 1; fiber.state === 'suspended'; k++) {
    lines.push(JSON.stringify(saveVm(vm, [fiber])));
    vm.resume(fiber, k);
  }
  lines.push(describeFiber(fiber));
  return { lines, vm };
}

const corpus = spellCorpus()
  .map((file) => ({ name: file.name, module: compile(file.text, { hosts: CORE_HOST_FUNCTIONS }).module }))
  .filter((entry): entry is { name: string; module: Module } => entry.module !== null);

describe('the compiled tier', () => {
  it('is available here (new Function is allowed in Node)', () => {
    expect(canCompile()).toBe(true);
  });

  it('runs a good part of the corpus', () => {
    expect(corpus.length).toBeGreaterThan(100);
  });

  it.each(corpus.map((entry) => [entry.name, entry.module] as const))('behaves as the interpreter: %s', (_name, module) => {
    sameInBothTiers(module, { fuel: 200_000, maxHeap: 200_000 });
  });

  it('gives every VM that runs the same code the same compiled functions, each reading its own VM’s tables', () => {
    const source = 'var greeting = "hi"; fun twice(x) { return x + x; } class P { init(n) { this.n = n; } get() { return this.n; } }';
    const made = [1, 2].map((k) => {
      const { module } = compile(`${source} print greeting + str(twice(P(${k}).get()));`);
      const lines: string[] = [];
      const vm = new VM(module!, { tier: 'compiled', print: (text) => lines.push(text) });
      expect(vm.runScript().state).toBe('done');
      return { vm, lines };
    });
    // Same bytecode, other constants (the 1 and the 2): the functions of the same code are one function.
    const [first, second] = made.map(({ vm }) => vm.runtimeFunctions);
    for (let i = 1; i < first!.length; i++) expect(second![i]!.compiled).toBe(first![i]!.compiled);
    expect(made.map(({ lines }) => lines)).toEqual([['hi2'], ['hi4']]);
  });

  it('runs out of fuel, heap, frames and stack exactly where the interpreter does', () => {
    const source = `
      fun deep(n) { if (n == 0) return 0; return 1 + deep(n - 1); }
      fun grow(n) { var s = ""; for (var i = 0; i < n; i = i + 1) s = s + "ab"; return len(s); }
      fun spin() { var i = 0; while (true) i = i + 1; }
      print deep(10);
      print grow(50);
      print deep(500);`;
    const { module } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
    for (const budgets of [{ fuel: 150 }, { fuel: 1_000 }, { maxHeap: 60 }, { maxFrames: 40 }, { maxStack: 64 }, { fuel: 3_000, maxFrames: 600 }]) {
      sameInBothTiers(module!, budgets);
    }
    const spin = compile('fun spin() { var i = 0; while (true) i = i + 1; } spin();', { hosts: CORE_HOST_FUNCTIONS }).module!;
    for (const fuel of [10, 99, 1_234, 50_001]) sameInBothTiers(spin, { fuel });
  });

  it('runs a hot loop of a function on the interpreter in the compiled code of that loop alone (tier auto)', () => {
    // Top-level loops (a script is never called again), nested loops, values left on the stack across
    // them, a return from inside a loop, a loop's function called again later (then compiled whole).
    const source = `
      class P { init() { this.n = 0; } bump(k) { this.n = this.n + k; return this; } }
      var p = P();
      var total = 0;
      for (var i = 0; i < 30000; i = i + 1) { var k = i - (i / 2); total = total + p.bump(1).n + k; }
      print total;
      var j = 0;
      while (j < 200) { var m = 0; while (m < 300) { m = m + 1; total = total + m; } j = j + 1; }
      print total; print p.n;
      fun find(n) { var x = 0; while (true) { x = x + 1; if (x * x > n) return x; } }
      print find(1000000000); print find(2000000000); print find(30);
      fun sum(n) { var s = 0; for (var q = 0; q < n; q = q + 1) s = s + q; return s; }
      print sum(100000);
      for (var r = 0; r < 5000; r = r + 1) total = total + sum(20);
      print total;`;
    const { module } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
    const run = (tier: Tier, fuel: number): string[] => {
      const out: string[] = [];
      const vm = new VM(module!, { hosts: CORE_HOST_FUNCTIONS, print: (t) => out.push(t), tier, fuel });
      const fiber = vm.runScript();
      expect(vm.compileFailures).toEqual([]);
      return [...out, describeFiber(fiber), tier === 'auto' ? String(vm.compileStats.words > 0) : 'true'];
    };
    for (const fuel of [1e9, 150_000, 400_001, 2_345_678]) {
      const interpreted = run('interpreter', fuel);
      expect(run('auto', fuel)).toEqual(interpreted);
      expect(run('compiled', fuel)).toEqual(interpreted);
    }
    expect(run('auto', 1e9).at(-1)).toBe('true');
  });

  it('calls through the inline caches exactly as the interpreter: misses, shadowing fields, fuel out at a call, overflow', () => {
    // One INVOKE site sees instances of several shapes and classes (cache misses after a hit), a
    // field that shadows a method set after the method was cached, a bound method, a host method on
    // a list; calls run out of fuel at every point of a range, and recursion through methods
    // overflows at the same depth.
    const source = `
      class A { init() { this.x = 1; } m(k) { return this.x + k; } }
      class B < A { init() { this.y = 2; this.x = 3; } m(k) { return super.m(k) * 2; } }
      class R { d(n) { if (n == 0) return 0; return 1 + this.d(n - 1); } }
      fun twice(k) { return k * 10; }
      var things = [A(), A(), B(), A()];
      things[1].z = 5;
      var total = 0;
      for (var i = 0; i < 400; i = i + 1) {
        var t = things[i - (i / 4 - (i / 4) % 1) * 4];
        total = total + t.m(i);
        if (i == 200) things[0].m = twice;
        var bound = t.m;
        total = total + bound(1);
      }
      print total;
      var xs = [1, 2, 3];
      xs.append(4);
      print len(xs);
      print R().d(30);
      print R().d(300);`;
    const { module } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
    for (let fuel = 2_000; fuel < 2_400; fuel += 7) sameInBothTiers(module!, { fuel });
    for (const maxFrames of [3, 31, 32, 33, 250, 400]) sameInBothTiers(module!, { maxFrames });
    sameInBothTiers(module!, {});
  });

  it('skips the frames of getters, empty functions and initializers that store fields exactly as the interpreter runs them', () => {
    // Getters (`return this.x;`), empty functions and methods, an empty `init`, an `init` and a
    // setter that only store fields run without a frame from compiled code when every check passes
    // and their caches hit: the same fuel, heap and depth as the frame the interpreter pushes
    // (stores that add fields charge the heap, up to its budget). The getter sees several shapes (its cache misses), a field that shadows it, calls from a closure
    // open over a local, through a bound method; fuel runs out at every point of a range, the
    // frame and heap budgets at the call; the last call fails inside the getter.
    const source = `
      class P { init() {} x() { return this.x0; } nothing() {} }
      fun none(a, b) {}
      class S { init(a, b) { this.a = a; this.b = 2; this.c = b; } set(v) { this.a = v; } }
      class Q { init(a) { this.x0 = a; } x() { return this.x0; } self() { return this; } }
      var ps = [Q(1), Q(2), Q(3)];
      ps[1].y = 4;
      fun hundred() { return 100; }
      ps[2].x0 = 7;
      var total = 0;
      for (var i = 0; i < 300; i = i + 1) {
        var p = ps[i % 3];
        total = total + p.x() + Q(i).x();
        P().nothing();
        none(i, p);
        var s = S(i, p);
        if (i % 5 == 0) s.extra = 1;
        s.set(i + 1);
        total = total + s.a + s.b + s.c.x();
        var keep = i;
        fun peek() { return keep + p.x(); }
        total = total + peek();
        if (i == 150) ps[0].x = hundred;
        var got = p.self;
        total = total + got().x();
      }
      print total;
      print P().x();`;
    const { module } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
    for (let fuel = 3_000; fuel < 3_400; fuel += 11) sameInBothTiers(module!, { fuel });
    for (const maxFrames of [2, 3, 4]) sameInBothTiers(module!, { maxFrames });
    for (const maxHeap of [40, 200, 2_000]) sameInBothTiers(module!, { maxHeap });
    sameInBothTiers(module!, {});
  });


  it('calls super methods through their cache exactly as the interpreter: a new superclass each time, arity faults, fuel out', () => {
    // One SUPER_INVOKE site (in Sub.get, one function for every class `make` builds) sees a new
    // superclass on every call of make (a miss, then hits), and classes declared meanwhile change
    // method tables (every cache is refilled).
    const source = `
      fun make(n) {
        class Base { get(k) { return n * 100 + k; } two(a, b) { return a + b; } }
        class Sub < Base { get(k) { return super.get(k) + 1; } bad() { return super.two(1); } }
        return Sub();
      }
      var total = 0;
      for (var i = 0; i < 60; i = i + 1) {
        var s = make(i % 3);
        for (var j = 0; j < 20; j = j + 1) total = total + s.get(j);
      }
      print total;
      print make(7).get(1);
      print make(1).bad();`;
    const { module } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
    for (let fuel = 2_000; fuel < 2_400; fuel += 7) sameInBothTiers(module!, { fuel });
    sameInBothTiers(module!, {});
    const { lines } = transcript(module!, 'compiled', {});
    expect(lines.slice(0, 2)).toEqual(['print 132600', 'print 702']);
    expect(lines[2]).toMatch(/Expected 2 arguments but got 1/);
  });
  it('recurses as deep as the budget allows, the same in both tiers (deep frames run on the interpreter)', () => {
    const source = `
      class A { d(n) { if (n == 0) return 0; return 1 + this.d(n - 1); } }
      class B { init(n) { if (n > 0) this.c = B(n - 1); } }
      fun f(n) { if (n == 0) return 0; return 1 + f(n - 1); }
      print f(5000); print A().d(5000); var b = B(5000); print "built";
      print f(200000);`;
    const { module } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
    const run = (tier: Tier): string[] => {
      const out: string[] = [];
      const vm = new VM(module!, { hosts: CORE_HOST_FUNCTIONS, print: (t) => out.push(t), tier, maxFrames: 100_000, maxStack: 10_000_000, fuel: 1e9 });
      const fiber = vm.runScript();
      return [...out, fiber.error?.message ?? ''];
    };
    const compiled = run('compiled');
    expect(compiled).toEqual(run('interpreter'));
    expect(compiled.slice(0, 3)).toEqual(['5000', '5000', 'built']);
    expect(compiled[3]).toMatch(/Stack overflow/);
  });

  it('never writes a string, name or number of the spell into the JavaScript it runs', () => {
    // Spell strings cannot hold a double quote; everything else that could close JS source is here.
    const hostile = [
      "'}); globalThis.pwned = 1; (function(){ '",
      "`; globalThis.pwned = 1; `",
      '*/ globalThis.pwned = 1; /*',
      '\\u0027); globalThis.pwned = 1; //',
      '</script><script>globalThis.pwned = 1</script>',
    ];
    const source = `
      class Evil { init() { this.constructor = "x"; this.__proto__ = 1; this.toString = 2; } valueOf() { return 3; } }
      fun f(a) {
        var e = Evil();
        var strings = [${hostile.map((s) => `"${s}"`).join(', ')}];
        var total = 0;
        for (var s in strings) total = total + len(s);
        return total + e.valueOf() + 100000000000000000000 + 0.1 + 123456789;
      }
      print f(1);`;
    const { module, diagnostics } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const vm = new VM(module!, { hosts: CORE_HOST_FUNCTIONS, print: () => {}, tier: 'compiled' });
    expect(vm.runtimeFunctions.every((fn) => fn.compiled !== null)).toBe(true);
    for (const fn of vm.runtimeFunctions) {
      const js = compiledSource(module!, fn) ?? '';
      for (const text of hostile) expect(js).not.toContain(text);
      for (const word of ['pwned', 'constructor', '__proto__', 'valueOf', '123456789', '100000000000000000000']) expect(js).not.toContain(word);
    }
    sameInBothTiers(module!, {});
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it('leaves a wait deep in calls as interpreter frames: the same snapshot, resumed to the same end', () => {
    const source = `
      fun inner(n) { var got = pause(n); return got * 2; }
      fun outer(n) { var s = 0; for (var i = 0; i < 3; i = i + 1) s = s + inner(n + i); return s; }
      spell go(n) { print outer(n); }`;
    const { module } = compile(source, { hosts: HOSTS });
    const run = (tier: Tier): string[] => castThroughWaits(module!, tier, 10).lines;
    const compiled = run('compiled');
    expect(compiled).toEqual(run('interpreter'));
    expect(compiled.at(-2)).toBe('12');
  });

  it('waits inside a loop compiled alone (tier auto) and goes on from the same snapshot', () => {
    const source = `
      fun step(i) { return i % 7; }
      spell go(n) {
        var s = 0;
        for (var i = 0; i < 120000; i = i + 1) {
          s = s + step(i);
          if (i % 30000 == 29999) s = s + pause(i);
        }
        print s;
      }`;
    const { module } = compile(source, { hosts: HOSTS });
    const run = (tier: Tier): string[] => {
      const { lines, vm } = castThroughWaits(module!, tier, 1, 1e8);
      return tier === 'auto' ? [...lines, String(vm.compileStats.words > 0)] : lines;
    };
    const auto = run('auto');
    expect(auto.slice(0, -1)).toEqual(run('interpreter'));
    expect(auto.at(-1)).toBe('true');
    // Four snapshots (one per wait), then the finished fiber.
    expect(auto.filter((line) => line.startsWith('{'))).toHaveLength(5);
  });

  it('sends every function back to the interpreter while a debugger is attached', () => {
    const { module } = compile('fun f(n) { var s = 0; for (var i = 0; i < n; i = i + 1) s = s + i; return s; } print f(5000);', {
      hosts: CORE_HOST_FUNCTIONS,
    });
    const vm = new VM(module!, { hosts: CORE_HOST_FUNCTIONS, print: () => {}, tier: 'compiled' });
    expect(vm.runtimeFunctions.every((fn) => fn.compiled !== null)).toBe(true);
    vm.breakHandler = { shouldPause: () => false };
    expect(vm.runtimeFunctions.every((fn) => fn.compiled === null)).toBe(true);
    expect(vm.runScript().state).toBe('done');
    expect(vm.runtimeFunctions.every((fn) => fn.compiled === null)).toBe(true);
    vm.breakHandler = null;
    expect(vm.runtimeFunctions.every((fn) => fn.compiled !== null)).toBe(true);
  });

  it('stays on the interpreter, with no error, where new Function is forbidden (a strict Content-Security-Policy)', () => {
    const { module } = compile('fun f(n) { var s = 0; for (var i = 0; i < n; i = i + 1) s = s + i; return s; } print f(5000);', {
      hosts: CORE_HOST_FUNCTIONS,
    });
    vi.stubGlobal('Function', function forbidden() {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed");
    });
    forgetCompileCheck();
    try {
      const printed: string[] = [];
      const vm = new VM(module!, { hosts: CORE_HOST_FUNCTIONS, print: (t) => printed.push(t), tier: 'compiled' });
      expect(vm.runningTier).toBe('interpreter');
      expect(vm.runScript().state).toBe('done');
      expect(printed).toEqual(['12497500']);
      expect(vm.compileFailures).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
      forgetCompileCheck();
    }
    expect(canCompile()).toBe(true);
  });

  it('compiles a function once it has spent its fuel on the interpreter (tier auto), and not before', () => {
    const { module } = compile('fun f(n) { return n + 1; } fun g() { var s = 0; for (var i = 0; i < 10; i = i + 1) s = f(s); return s; }', {
      hosts: CORE_HOST_FUNCTIONS,
    });
    forgetCompiledCode(); // an earlier test may have compiled the same code (a new VM would run it compiled at once)
    const vm = new VM(module!, { hosts: CORE_HOST_FUNCTIONS, print: () => {} });
    vm.runScript();
    const f = vm.runtimeFunctions.find((fn) => fn.name === 'f')!;
    vm.call('g', []);
    expect(f.compiled).toBeNull();
    // f: 2,000 fuel (the minimum) at a few fuel a call, ten calls per g.
    for (let i = 0; i < 1_000; i++) expect(vm.call('g', []).result).toBe(10);
    expect(f.compiled).not.toBeNull();
    expect(vm.call('g', []).result).toBe(10);
  });

  it('asks for a loop compiled alone before at its first sampled back edge in a new VM, with the same output and fuel', () => {
    forgetCompiledCode();
    const hosts = CORE_HOST_FUNCTIONS;
    // A script's loop (compiled alone: the top level is never called again); the count is a constant, so each
    // program has the same code.
    const program = (n: number) => `var s = 0; for (var i = 0; i < ${n}; i = i + 1) s = s + i % 7; print s;`;
    const runOn = (tier: Tier, n: number, fuel = 1e7) => {
      const lines: string[] = [];
      const vm = new VM(compile(program(n), { hosts }).module!, { hosts, print: (text) => lines.push(text), tier, fuel });
      const fiber = vm.runScript();
      return { words: vm.compileStats.words, text: `${lines.join(' ')} ${describeFiber(fiber)}` };
    };
    // Nothing compiled before: 150 iterations stay on the interpreter; a longer run compiles the loop.
    expect(runOn('auto', 150).words).toBe(0);
    expect(runOn('auto', 5_000).words).toBeGreaterThan(0);
    // A new VM: the loop's code is asked for at the first sampled back edge, and everything else is the same.
    for (const fuel of [1e7, 700, 1_500, 3_000]) {
      const again = runOn('auto', 150, fuel);
      // (700 and 1,500 fuel run out before the first sampled back edge: 128 iterations.)
      if (fuel >= 3_000) expect(again.words).toBeGreaterThan(0);
      expect(again.text).toBe(runOn('interpreter', 150, fuel).text);
    }
  });

  it('runs code the process compiled before compiled from its first call in a new VM, with the same fuel and results', () => {
    forgetCompiledCode();
    const source = `fun f(n) { var s = 0; for (var i = 0; i < n; i = i + 1) s = s + i; return s; }
      fun fib(n) { if (n < 2) return n; return fib(n - 2) + fib(n - 1); }
      fun g(n) { return f(n) + fib(12); }`;
    const hosts = CORE_HOST_FUNCTIONS;
    const fresh = (tier: Tier, text = source): VM => {
      const vm = new VM(compile(text, { hosts }).module!, { hosts, print: () => {}, tier, fuel: 1e7 });
      vm.runScript();
      return vm;
    };
    const named = (vm: VM, name: string) => vm.runtimeFunctions.find((fn) => fn.name === name)!;
    const outcome = (fiber: Fiber): string => describeFiber(fiber);
    // A first VM: nothing compiled before; f, fib and g are compiled once hot.
    const first = fresh('auto');
    expect(outcome(first.call('g', [3]))).toEqual(outcome(fresh('interpreter').call('g', [3])));
    expect(named(first, 'f').compiled).toBeNull();
    for (let i = 0; i < 3_000; i++) first.call('g', [50]);
    expect(['f', 'fib', 'g'].map((name) => named(first, name).compiled !== null)).toEqual([true, true, true]);
    // A new VM of the same program (compiled again: another Module): compiled at the first call, and the same outcome.
    for (const n of [3, 400, 0]) {
      const again = fresh('auto');
      const interpreted = fresh('interpreter');
      expect(outcome(again.call('g', [n]))).toEqual(outcome(interpreted.call('g', [n])));
      expect(['f', 'fib', 'g'].map((name) => named(again, name).compiled !== null)).toEqual([true, true, true]);
    }
    // Under a fuel budget that runs out inside: the same instruction, on the first call.
    for (const fuel of [50, 777, 2_000]) {
      const run = (tier: Tier): string => {
        const vm = new VM(compile(source, { hosts }).module!, { hosts, print: () => {}, tier, fuel });
        vm.runScript();
        return outcome(vm.call('g', [40]));
      };
      expect(run('auto')).toEqual(run('interpreter'));
    }
    // Other code (f adds one more): counted as usual.
    const other = fresh('auto', source.replace('s = s + i;', 's = s + i + 1;'));
    other.call('g', [3]);
    expect(named(other, 'f').compiled).toBeNull();
    expect(named(other, 'fib').compiled).not.toBeNull();
    // A debugger attached: every function on the interpreter, remembered or not.
    const debugged = fresh('auto');
    debugged.breakHandler = { shouldPause: () => false };
    debugged.call('g', [3]);
    expect(debugged.runtimeFunctions.every((fn) => fn.compiled === null)).toBe(true);
  });
});
