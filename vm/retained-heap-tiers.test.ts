/**
 * A heap budget that counts what a fiber retains (`heapCounts: 'retained'`,
 * as `cantrip run` uses) measures the fiber when its count passes maxHeap
 * (vm/retained-heap.ts). The measurement reads the stack as the plain
 * interpreter holds it when the charging instruction starts (its inputs
 * included; a host call's arguments too), the frames' closures and the
 * globals — nothing above that stack top, and every value the compiled tier
 * or a superinstruction holds in a local instead. So both tiers measure the
 * same values, pay the same fuel for it, and end the same way.
 *
 * Checked two ways: what one measurement counts (a value held only in a
 * compiled local is counted, a popped slot is not), and allocation-heavy
 * programs under many small maxHeap and fuel budgets, identical in every
 * tier to the fuel left.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { checkProperty } from '../tests/fuzz/fuzz-settings.js';
import { programArbitrary, renderProgram } from '../tests/fuzz/program-arbitrary.js';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import type { Fiber } from './fiber.js';
import type { VmHostContext } from './host-context.js';
import type { HostFunction } from './host.js';
import type { Module } from './module.js';
import { ObjList, ObjHostFunction } from './objects.js';
import { ObjMap } from './map-object.js';
import type { Value } from './value.js';
import { VM, type Tier } from './vm.js';

const TIERS: readonly Tier[] = ['interpreter', 'compiled', 'auto'];

/** The fiber a host function runs for (the VM's own context). */
function fiberOf(ctx: unknown): Fiber {
  return (ctx as VmHostContext).fiber!;
}

/**
 * Test hosts: `fill()` brings the fiber's heap count to its maxHeap (the next
 * charge measures) and returns ""; `heapNow()` returns the count; `probe()`
 * charges past maxHeap itself, so the measurement happens during the host
 * call, and returns what it counted (`probeWith(x)` as well, holding x).
 */
const PROBES: readonly HostFunction[] = [
  {
    name: 'fill',
    params: [],
    returns: 'string',
    doc: 'heap count to maxHeap',
    impl: (ctx) => {
      const fiber = fiberOf(ctx);
      fiber.heapUsed = fiber.budgets.maxHeap;
      return '';
    },
  },
  { name: 'heapNow', params: [], returns: 'number', doc: 'the heap count', impl: (ctx) => fiberOf(ctx).heapUsed },
  {
    name: 'probe',
    params: [],
    returns: 'number',
    doc: 'measure now, from a host call',
    impl: (ctx) => {
      ctx.chargeHeap(fiberOf(ctx).budgets.maxHeap + 1);
      return fiberOf(ctx).heapUsed;
    },
  },
  {
    name: 'probeWith',
    params: [{ name: 'x', type: 'any' }],
    returns: 'number',
    doc: 'probe, with an argument',
    impl: (ctx) => {
      ctx.chargeHeap(fiberOf(ctx).budgets.maxHeap + 1);
      return fiberOf(ctx).heapUsed;
    },
  },
];

const HOSTS = [...CORE_HOST_FUNCTIONS, ...PROBES];

function load(source: string): Module {
  const { module, diagnostics } = compile(source, { hosts: HOSTS });
  if (module === null) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return module;
}

/** Everything observable of a script's run under a retained heap budget. */
function run(module: Module, tier: Tier, fuel: number, maxHeap: number): string[] {
  const lines: string[] = [];
  const vm = new VM(module, { hosts: HOSTS, print: (text) => lines.push(text), tier, fuel, maxHeap, heapCounts: 'retained' });
  const fiber = vm.runScript();
  lines.push(
    JSON.stringify({
      state: fiber.state,
      error: fiber.error?.format() ?? null,
      limit: fiber.error?.limit ?? null,
      fuel: fiber.fuel,
      heap: fiber.heapUsed,
      output: fiber.outputUsed,
    }),
  );
  // The compiled tier really ran the functions (one it cannot compile stays on the interpreter).
  expect(vm.compileFailures).toEqual([]);
  return lines;
}

/** The run's transcript, the same in every tier. */
function sameInEveryTier(module: Module, fuel: number, maxHeap: number): string[] {
  const [first, ...others] = TIERS.map((tier) => run(module, tier, fuel, maxHeap));
  for (const other of others) expect(other).toEqual(first);
  return first!;
}

/** What `f(s)` prints (its last line is the fiber), run with a long string, in every tier. */
function printed(body: string): number {
  const module = load(`fun f(s) {\n${body}\n}\nvar long = ""; for (var i = 0; i < 10; i = i + 1) long = long + "0123456789";\nf(long);`);
  const lines = sameInEveryTier(module, 1e7, 100_000);
  expect(JSON.parse(lines.at(-1)!).state).toBe('done');
  return Number(lines[0]);
}

describe('what a retained-heap measurement counts', () => {
  it('a value held only in a local (compiled code, a superinstruction) at an instruction’s heap charge', () => {
    // The second concatenation charges with s + "1" and fill()'s "" still in locals below its inputs: counted (101 units).
    const held = printed('var r = [s + "1", fill() + (s + "2"), heapNow()]; print r[2];');
    const none = printed('var r = [1, fill() + (s + "2"), heapNow()]; print r[2];');
    expect(held - none).toBe(101);
  });

  it('the inputs of the instruction that charges', () => {
    // The concatenation charged last, right after fill(): its inputs (s, 100 units, or e, none) are counted.
    const input = printed('var e = ""; var r = [fill(), s + "2", heapNow()]; print r[2];');
    const empty = printed('var e = ""; var r = [fill(), e + "2", heapNow()]; print r[2];');
    expect(input - empty).toBe(100);
  });

  it('the values below a host call’s arguments, and its arguments, held in compiled locals', () => {
    const held = printed('var r = [s + "1", probe()]; print r[1];');
    const none = printed('var r = [1, probe()]; print r[1];');
    expect(held - none).toBe(101);
    const argument = printed('var r = [s + "1", probeWith(s + "2")]; print r[1];');
    const numbers = printed('var r = [1, probeWith(2)]; print r[1];');
    expect(argument - numbers).toBe(202);
  });

  it('not a slot popped before the charge (a block’s local, a call’s frame above)', () => {
    const popped = printed(
      'fun deeper(x) { var l = [x + x, x + x]; l.append(x + x); return len(l); }\n{ var big = s + s + s; var l = [big]; l.append(big); deeper(big); }\nvar r = [fill() + (s + "2"), heapNow()]; print r[1];',
    );
    const never = printed('fun deeper(x) { return 0; }\nvar r = [fill() + (s + "2"), heapNow()]; print r[1];');
    // Only the closure `deeper` differs (a local function of f's frame: a closure the frame holds).
    const alone = printed('var deeper = nil;\nvar r = [fill() + (s + "2"), heapNow()]; print r[1];');
    expect(popped).toBe(never);
    expect(never).toBeGreaterThan(alone);
  });

  it('from a host call: not a slot popped before it', () => {
    const popped = printed('{ var big = s + s + s; var l = [big]; l.append(big); }\nvar r = [1, probe()]; print r[1];');
    const never = printed('var r = [1, probe()]; print r[1];');
    expect(popped).toBe(never);
  });
});

describe('host functions that never charge the heap', () => {
  it('are the core builtins of plain numbers, and charge nothing whatever they are given', () => {
    const free = CORE_HOST_FUNCTIONS.filter((host) => !new ObjHostFunction(host).chargesHeap).map((host) => host.name);
    expect(free).toEqual(expect.arrayContaining(['clock', 'len', 'sqrt', 'floor', 'min', 'max', 'sin', 'pi']));
    expect(free).not.toContain('str');
    // A custom host, even one named as a builtin, may charge.
    expect(new ObjHostFunction({ ...CORE_HOST_FUNCTIONS.find((host) => host.name === 'sqrt')! }).chargesHeap).toBe(true);
    const refuse = (): never => {
      throw new Error('charged the heap');
    };
    const ctx = { chargeHeap: refuse, makeList: refuse, chargeFuel: () => {}, chargeOutput: () => {}, remainingFuel: 1e9 };
    const list = new ObjList(['a', 1]);
    const map = new ObjMap();
    const samples: Value[] = [0, -2.5, 1e300, Number.NaN, 'text', list, map, null, true];
    for (const host of CORE_HOST_FUNCTIONS) {
      if (!free.includes(host.name)) continue;
      for (const a of samples) {
        for (const b of samples) {
          const args = [a, b, a].slice(0, host.params.length);
          // A refused argument may throw its own error; a heap charge is the only thing not allowed.
          try {
            host.impl(ctx as never, ...args);
          } catch (error) {
            expect((error as Error).message, host.name).not.toBe('charged the heap');
          }
        }
      }
    }
  });
});

/** Allocation-heavy statements for the loop body of `work` (`i` the loop counter, `s`, `l`, `m` its locals). */
const STATEMENTS = [
  's = s + "ab";',
  'l.append(s + str(i));',
  'm[str(i % 5)] = [i, s];',
  'var t = (s + "y") + (s + "z");',
  'keep.append(Box(s + "!", l).get());',
  'if (i % 4 == 0) l = [];',
  'g = deep(3, s);',
  'fun add(k) { return k + i + len(s); } l.append(add);',
  'var u = `${s}-${i}-${len(l)}`;',
  's = s + str(i) + str(len(l));',
  'l.append({"a": s, "b": i, "c": [s]});',
  'var parts = "a,b,c".split(","); l.append(parts.join(s));',
  'if (i % 6 == 5) m = {};',
  'if (len(keep) > 20) keep = [];',
  'var b = Box(l, m); b.w = [b.v, s + "w"]; keep.append(b);',
  'for (k in m) l.append(k + s);',
  'var w = [s, s + "1", [s + "2", str(i)]]; g = w[2][0] + str(len(w));',
  // A host function and a built-in method called as values (CALL_VALUE's calls out), a string method.
  'var h = str; var ap = l.append; ap(h(i) + s.upper());',
];

const PRELUDE = `var keep = [];
var g = "";
class Box {
  init(v, w) { this.v = v; this.w = w; }
  get() { return this.v; }
}
fun deep(d, s) {
  if (d == 0) return s + ".";
  var t = s + str(d);
  return deep(d - 1, t) + t;
}
`;

/** An allocation-heavy program: `work(n)`'s loop runs the statements picked, several times over. */
function program(statements: readonly number[], n: number): string {
  // Each in a block of its own: a statement picked twice declares its variables twice.
  const body = statements.map((k) => `    { ${STATEMENTS[k]!} }`).join('\n');
  return `${PRELUDE}fun work(n) {
  var s = "";
  var l = [];
  var m = {};
  for (var i = 0; i < n; i = i + 1) {
${body}
  }
  return l;
}
var total = 0;
for (var j = 0; j < 6; j = j + 1) total = total + len(work(${n}));
print total;
print len(keep);
`;
}

describe('allocation-heavy programs under a retained heap budget', () => {
  it('each statement runs in every tier, and the programs reach their budgets (the property below is worth its runs)', () => {
    const limits = new Set<string>();
    STATEMENTS.forEach((_, k) => {
      const module = load(program([k], 12));
      const unbounded = sameInEveryTier(module, 1e9, 1e9);
      expect(JSON.parse(unbounded.at(-1)!).state, STATEMENTS[k]).toBe('done');
      for (const [fuel, maxHeap] of [[3_000, 300], [1e9, 120]] as const) limits.add(String(JSON.parse(sameInEveryTier(module, fuel, maxHeap).at(-1)!).limit));
    });
    expect([...limits].sort()).toEqual(['fuel', 'heap', 'null']);
  });

  it('end the same in every tier: output, state, error, fuel left, heap count', () => {
    const property = fc.property(
      fc.array(fc.nat({ max: STATEMENTS.length - 1 }), { minLength: 2, maxLength: 6 }),
      fc.integer({ min: 4, max: 25 }),
      fc.integer({ min: 30, max: 6_000 }),
      fc.constantFrom(2_000, 9_000, 40_000, 250_000),
      (statements, n, maxHeap, fuel) => {
        sameInEveryTier(load(program(statements, n)), fuel, maxHeap);
      },
    );
    checkProperty('retained heap: allocation-heavy programs in every tier', property, 60);
  });

  it('programs generated from the grammar end the same in every tier', () => {
    const property = fc.property(
      programArbitrary({ world: false }).map(renderProgram),
      fc.constantFrom(60, 200, 1_000, 5_000),
      fc.constantFrom(500, 5_000, 30_000),
      (source, maxHeap, fuel) => {
        const { module } = compile(source, { hosts: HOSTS });
        if (module !== null) sameInEveryTier(module, fuel, maxHeap);
      },
    );
    checkProperty('retained heap: generated programs in every tier', property, 60);
  });
});
