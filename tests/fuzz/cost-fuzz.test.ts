/**
 * The cost-proportionality fuzzer (docs/security.md, "How the constants are
 * measured"): programs from the grammar and from templates of the hostile
 * shapes of issue 9 (big classes, many upvalues, long strings, big worlds,
 * many fields, long lists) run under a small fuel budget; each one's time per
 * unit of fuel must stay within CPU_BOUND times that of `while (true) {}`
 * measured in the same process. Programs that keep what they allocate must
 * keep at most MEMORY_BOUND bytes per heap unit they were charged.
 *
 * Robust on a loaded 2-core machine: time is only ever compared with the
 * baseline loop measured beside it, a case over half the bound is measured
 * again seven times (interleaved with the baseline) and judged by the median
 * ratio, and the bounds are generous (the worst cases measured are well
 * inside them: see docs/security.md). CI runs a fixed seed; `npm run fuzz`
 * runs it longer.
 */

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Calibration, prepare, prepareMeasuring, retainedPerUnit, type CostCase } from './cost-measure.js';
import { checkProperty } from './fuzz-settings.js';
import { programArbitrary, renderProgram } from './program-arbitrary.js';

/** Most ns per fuel any program may take, as a multiple of `while (true) {}`'s. */
export const CPU_BOUND = 50;
/** Most bytes a heap unit may keep alive (a unit is meant to be about 8 bytes: one value slot). */
export const MEMORY_BOUND = 64;
/** Memory a measurement may be off by (other allocations in the worker, array growth). */
const MEMORY_SLACK = 1_000_000;

const FUEL = { fuel: 200_000, maxHeap: 20_000_000 } as const;

const methods = (n: number): string => Array.from({ length: n }, (_, i) => `m${i}() { return ${i}; }`).join(' ');
const localNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `a${i}`);
const bigString = (log2: number): string => `var s = "x"; for (var i = 0; i < ${log2}; i = i + 1) s = s + s; var t = s + "a"; var u = s + "b";`;

/** Top-level code filling `keep` with n values of a kind (for the measuring cases). */
const KEPT: Record<string, (n: number) => string> = {
  numbers: (n) => `for (var i = 0; i < ${n}; i = i + 1) keep.append(i);`,
  'empty lists': (n) => `for (var i = 0; i < ${n}; i = i + 1) keep.append([]);`,
  'instances of 2 fields': (n) => `class P { init(a) { this.a = a; this.b = a; } } for (var i = 0; i < ${n}; i = i + 1) keep.append(P(i));`,
  'references to one instance': (n) => `class P {} var one = P(); for (var i = 0; i < ${n}; i = i + 1) keep.append(one);`,
  'closures over one upvalue': (n) => `fun make(x) { fun g() { return x; } return g; } for (var i = 0; i < ${n}; i = i + 1) keep.append(make(i));`,
  'maps of one entry': (n) => `for (var i = 0; i < ${n}; i = i + 1) keep.append({"k": i});`,
  'short strings': (n) => `for (var i = 0; i < ${n}; i = i + 1) keep.append(str(i));`,
  'bound methods': (n) => `class P { m() {} } var one = P(); for (var i = 0; i < ${n}; i = i + 1) keep.append(one.m);`,
  'classes with 3 methods': (n) => `for (var i = 0; i < ${n}; i = i + 1) { class C { a() {} b() {} c() {} } keep.append(C); }`,
};

/** A search built to be quadratic for a naive or Boyer–Moore–Horspool search: 2^log2 "a"s searched for m - 1 "a"s and a "b" (issue 17: 600× before). */
function searchCase(log2: number, m: number, op: string): CostCase {
  return {
    ...vmCase(
    `search 2^${log2} "a"s for ${m - 1} "a"s and a "b": ${op}`,
      `var t = "a"; for (var i = 0; i < ${log2}; i = i + 1) t = t + t; var p = "b"; for (var i = 1; i < ${m}; i = i + 1) p = "a" + p;\nspell go() { while (true) { ${op} } }`,
    ),
    // Fuel for a few searches of the longest text (each is charged its length before it runs).
    budgets: { fuel: 5_000_000, maxHeap: 20_000_000 },
  };
}

const vmCase = (name: string, source: string): CostCase => ({ name, where: 'vm', source, budgets: FUEL });
const worldCase = (name: string, source: string, size: number, entities: number): CostCase => ({
  name,
  where: 'world',
  source,
  world: { size, entities },
  budgets: FUEL,
});

/** Classes C0 … Cn, each inheriting from the one before; C0 has `methodCount` methods (m0 …). */
const classChain = (depth: number, methodCount: number): string =>
  `class C0 { ${methods(methodCount)} }\n${Array.from({ length: depth }, (_, i) => `class C${i + 1} < C${i} {}`).join('\n')}`;

/** What a spell can do with a method found through a deep inheritance chain (issue 34). */
const CHAIN_OPS: Record<string, (depth: number) => string> = {
  'call a method of the root': (d) => `var o = C${d}(); while (true) { o.m0(); }`,
  'read it as a bound method': (d) => `var o = C${d}(); while (true) { var b = o.m0; }`,
  'call it on instances of every class of the chain at one site': (d) =>
    `var os = []; for (var i = 0; i <= ${d}; i = i + 1) os.append(C${d}()); var k = 0; while (true) { os[k % ${d + 1}].m0(); k = k + 1; }`,
  'declare a subclass of the deepest class': (d) => `while (true) { class D < C${d} {} }`,
  'instantiate the deepest class': (d) => `while (true) { C${d}(); }`,
  'call a missing method': (d) => `var o = C${d}(); while (true) { if (random_() > 2) o.nothing(); }`,
};

/** Templates of the hostile shapes: each a family of programs that loop on one expensive operation. */
const hostile: fc.Arbitrary<CostCase> = fc.oneof(
  // Up to 500 deep here (declaring a chain of 2,000 classes takes a while): the test below runs 2,000.
  fc.tuple(fc.integer({ min: 1, max: 500 }), fc.constantFrom(1, 20, 200), fc.constantFrom(...Object.keys(CHAIN_OPS))).map(([depth, count, op]) =>
    vmCase(`chain ${depth} deep of ${count} methods: ${op}`, `${classChain(depth, count)}\nfun random_() { return 1; }\nspell go() { ${CHAIN_OPS[op]!(depth)} }`),
  ),
  fc.integer({ min: 1, max: 3000 }).map((n) => vmCase(`inherit ${n} methods`, `class A { ${methods(n)} }\nspell go() { while (true) { class B < A {} } }`)),
  fc.integer({ min: 1, max: 250 }).map((n) => {
    const names = localNames(n);
    return vmCase(
      `closure over ${n} upvalues`,
      `spell go() { ${names.map((a) => `var ${a} = 1;`).join(' ')} while (true) { fun g() { return ${names.join(' + ')}; } } }`,
    );
  }),
  fc.tuple(fc.integer({ min: 0, max: 21 }), fc.constantFrom('print s;', 't == u;', 'var c = s + "!";', 'len(s);', 'str(s);', 'var k = t == s;')).map(
    ([log2, op]) => vmCase(`strings of 2^${log2}: ${op}`, `${bigString(log2)}\nspell go() { while (true) { ${op} } }`),
  ),
  fc.tuple(fc.integer({ min: 0, max: 18 }), fc.constantFrom('say(self, s);', 'sound(s);', 'particles(s, 1, 1, 5);', 'nearest(self, 5, s);', 'self.is(s);', 'self.note = s;', 'spawn(s, 1, 1);', 'buff(self, s, 1, 1);')).map(
    ([log2, op]) => worldCase(`world text of 2^${log2}: ${op}`, `${bigString(log2)}\nspell go(self) { while (true) { ${op} } }`, 100, 2),
  ),
  fc.tuple(
    fc.constantFrom(100, 1000, 10_000),
    fc.constantFrom(2, 40, 400),
    fc.constantFrom('nearest(self, R);', 'within(0, 0, R);', 'nearby(self, R);', 'nearest(self, R, "big");', 'distance(self, self);', 'random();'),
    fc.constantFrom(1, 30, 1_000_000),
  ).map(([size, entities, op, r]) =>
    worldCase(`world ${size}² with ${entities}: ${op.replace('R', String(r))}`, `spell go(self) { while (true) { ${op.replace('R', String(r))} } }`, size, entities),
  ),
  fc.constantFrom(
    'despawn(spawn("Imp", 1, 1));',
    'damage(self, 0);',
    'heal(self, 1);',
    'move(self, random() * 100, random() * 100);',
    'setVelocity(self, 1, 1);',
    'buff(self, "speed", 1, 0.5);',
    'self.x = random() * 100;',
    'self.note = "abc";',
    'var v = self.note;',
    'self.is("Ogre");',
    'now();',
    'str(self);',
  ).map((op) => worldCase(`world host call: ${op}`, `spell go(self) { while (true) { ${op} } }`, 100, 40)),
  fc.integer({ min: 1, max: 64 }).map((n) =>
    vmCase(
      `a new class per iteration with ${n} fields`,
      `spell go() { while (true) { class C {} var o = C(); ${Array.from({ length: n }, (_, i) => `o.f${i} = ${i};`).join(' ')} } }`,
    ),
  ),
  fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('l.append(l.remove(0));', 'print l;', 'str(l);', 'for (x in l) {}', 'var m = [l, l, l]; str(m);')).map(
    ([n, op]) => vmCase(`list of ${n}: ${op}`, `var l = []; for (var i = 0; i < ${n}; i = i + 1) l.append(i);\nspell go() { while (true) { ${op} } }`),
  ),
  fc.integer({ min: 1, max: 200 }).map((depth) =>
    vmCase(`list nested ${depth} deep, printed`, `var l = [1]; for (var i = 0; i < ${depth}; i = i + 1) l = [l, l];\nspell go() { while (true) { print l; } }`),
  ),
  fc.tuple(fc.integer({ min: 0, max: 20 }), fc.constantFrom(2, 8, 16, 17, 100, 1000, 30_000), fc.constantFrom('t.contains(p);', 't.indexOf(p);', 't.split(p);')).map(
    ([log2, m, op]) => searchCase(log2, m, op),
  ),
);

/** Grammar programs: their spells' bodies become `go`. */
const grammar: fc.Arbitrary<CostCase> = programArbitrary({ world: false })
  .map(renderProgram)
  .map((source) => vmCase('grammar program', `${source}\nspell go() { while (true) { if (random_() > 2) return; } }\nfun random_() { return 1; }`));

let calibration: Calibration;
const worst = { ratio: 0, name: '', fuel: 0 };
/** Every measured case, for the report. */
const measured: { name: string; ratio: number }[] = [];
const retained: { what: string; perUnit: number }[] = [];

beforeAll(() => {
  calibration = new Calibration();
});

afterAll(() => {
  // The figures docs/security.md quotes; printed so `npm run fuzz` reports them.
  const top = [...measured].sort((a, b) => b.ratio - a.ratio).slice(0, 8);
  console.log(
    `cost fuzz: baseline ${calibration.nsPerFuel.toFixed(2)} ns/fuel over ${measured.length} cases; worst case ${worst.ratio.toFixed(1)}× (${worst.name}, ${worst.fuel} fuel)\n` +
      top.map((m) => `  ${m.ratio.toFixed(1)}×  ${m.name}`).join('\n') +
      `\nretained bytes per heap unit: ${retained.map((r) => `${r.what} ${r.perUnit.toFixed(1)}`).join('; ')}`,
  );
});

function checkCase(c: CostCase): void {
  const run = prepare(c);
  if (run === null) return; // did not compile or load: nothing to measure
  const { ratio, sample } = calibration.ratio(run, c.budgets, CPU_BOUND / 2);
  if (ratio > worst.ratio) Object.assign(worst, { ratio, name: c.name, fuel: sample.fuel });
  measured.push({ name: c.name, ratio });
  expect(ratio, `${c.name}: ${ratio.toFixed(1)}× the ns per fuel of while (true) {} (${sample.fuel} fuel, ${(sample.ns / 1e6).toFixed(1)} ms, ${sample.limit ?? sample.state})`).toBeLessThanOrEqual(CPU_BOUND);
}

describe('cost proportionality: CPU time ≤ fuel × a constant', () => {
  it('the baseline is measurable', () => {
    expect(calibration.nsPerFuel).toBeGreaterThan(0);
  });

  it('templates of the hostile shapes stay within the bound', () => {
    checkProperty('cost/hostile', fc.property(hostile, checkCase), 60);
  });

  it('methods through a 2,000-deep inheritance chain stay within the bound (always run, whatever the seed draws)', () => {
    for (const [op, body] of Object.entries(CHAIN_OPS)) {
      checkCase(vmCase(`chain 2000 deep of 20 methods: ${op}`, `${classChain(2_000, 20)}\nfun random_() { return 1; }\nspell go() { ${body(2_000)} }`));
    }
  });

  it('the worst searches stay within the bound (always run, whatever the seed draws)', () => {
    for (const op of ['t.contains(p);', 't.indexOf(p);', 't.split(p);']) {
      for (const m of [16, 17, 1000, 30_000]) checkCase(searchCase(20, m, op));
    }
  });

  it('measuring what a cast keeps (at a wait, or under a retained heap budget) stays within the bound, whatever it keeps', () => {
    const cases = Object.keys(KEPT).flatMap((kind) => [1_000, 30_000].map((n) => ({ kind, n })));
    for (const { kind, n } of cases) {
      const name = `measuring ${n} ${kind} kept`;
      const ratio = calibration.ratioOfTimed(prepareMeasuring(`var keep = []; ${KEPT[kind]!(n)}`), CPU_BOUND / 2);
      if (ratio > worst.ratio) Object.assign(worst, { ratio, name, fuel: 0 });
      measured.push({ name, ratio });
      expect(ratio, `${name}: ${ratio.toFixed(1)}× the ns per fuel of while (true) {}`).toBeLessThanOrEqual(CPU_BOUND);
    }
  });

  it('programs from the grammar stay within the bound', () => {
    checkProperty('cost/grammar', fc.property(grammar, checkCase), 40);
  });
});

describe('memory proportionality: retained memory ≤ heap units × a constant', () => {
  const keepers: Record<string, string> = {
    'closures over 3 upvalues': 'var a = 1; var b = 2; var c = 3; while (true) { fun g() { return a + b + c; } keep.append(g); }',
    'closures over nothing': 'while (true) { fun g() { return 1; } keep.append(g); }',
    'instances with 0 fields': 'class K {} while (true) keep.append(K());',
    'instances with 5 fields': 'class K {} while (true) { var k = K(); k.a = 1; k.b = 2; k.c = 3; k.d = 4; k.e = 5; keep.append(k); }',
    'classes': 'while (true) { class K {} keep.append(K); }',
    'classes inheriting 20 methods': `class A { ${methods(20)} } while (true) { class B < A {} keep.append(B); }`,
    'bound methods': 'class K { m() {} } var k = K(); while (true) keep.append(k.m);',
    'empty lists': 'while (true) keep.append([]);',
    'lists of 10': 'while (true) keep.append([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);',
    'short strings': 'var i = 0; while (true) { keep.append("ab" + str(i)); i = i + 1; }',
    'long strings': 'var s = "0123456789"; while (true) { s = s + "abcdefghij"; keep.append(s); }',
    'numbers': 'var i = 0; while (true) { keep.append(i); i = i + 0.5; }',
  };
  for (const [what, body] of Object.entries(keepers)) {
    it(`${what}: at most ${MEMORY_BOUND} bytes per heap unit`, () => {
      const measured = retainedPerUnit(`var keep = [];\nspell go() { ${body} }`, 300_000);
      retained.push({ what, perUnit: measured.perUnit });
      expect(measured.limit, what).toBe('heap');
      expect(measured.bytes, `${what}: ${measured.perUnit.toFixed(1)} bytes per unit`).toBeLessThanOrEqual(MEMORY_BOUND * measured.units + MEMORY_SLACK);
    });
  }
});
