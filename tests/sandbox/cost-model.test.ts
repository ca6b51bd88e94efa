/**
 * The cost model (docs/security.md, "The cost model"): one regression test per
 * repro of issue 9, each asserting on the fuel, heap, output or world-budget
 * accounting — never on wall time — plus the heap charge of every kind of
 * allocation. The constants these charges buy (ns per fuel, bytes per heap
 * unit) are measured by tests/fuzz/cost-fuzz.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { World, type WorldOptions } from '../../runtime/world/world.js';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import type { WorldEvent } from '../../runtime/events/events.js';
import { WorldError } from '../../runtime/errors.js';
import type { Budgets } from '../../vm/budgets.js';
import { HEAP_COST } from '../../vm/costs.js';
import { disassemble } from '../../vm/disassembler.js';
import { VerifyError } from '../../vm/errors.js';
import type { Module } from '../../vm/module.js';
import { Op } from '../../vm/opcodes.js';
import { VERIFIER_LIMITS, verifyModule } from '../../vm/verifier.js';
import { compileOrThrow, makeVm } from './sandbox-helpers.js';
import type { BreedData } from '../../runtime/entities/breeds.js';

const BIG = { fuel: 100_000_000, maxHeap: 100_000_000 } as const;

/** Fuel and heap a cast of `spell` used (it must finish cleanly). */
function costOf(source: string, spell = 'go', budgets: Partial<Budgets> = BIG): { fuel: number; heap: number; result: unknown } {
  const { vm } = makeVm(source, { ...BIG, ...budgets });
  const fiber = vm.cast(spell, []);
  expect(fiber.error?.message ?? null).toBeNull();
  return { fuel: (budgets.fuel ?? BIG.fuel) - fiber.fuel, heap: fiber.heapUsed, result: fiber.result };
}

/** The extra cost of `body` over an empty spell with the same setup. */
function extraCost(setup: string, body: string): { fuel: number; heap: number } {
  const withBody = costOf(`${setup}\nspell go() { ${body} }`);
  const without = costOf(`${setup}\nspell go() { }`);
  return { fuel: withBody.fuel - without.fuel, heap: withBody.heap - without.heap };
}

function methods(n: number): string {
  return Array.from({ length: n }, (_, i) => `m${i}() {}`).join(' ');
}

function locals(n: number): { declare: string; sum: string } {
  const names = Array.from({ length: n }, (_, i) => `a${i}`);
  return { declare: names.map((a) => `var ${a} = 1;`).join(' '), sum: names.join(' + ') };
}

function makeWorld(spells: string, breeds: unknown, options: Partial<WorldOptions> = {}): { world: World; events: WorldEvent[] } {
  const world = new World({ width: 100, height: 100, ...options });
  world.loadSpells(spells, 'w.spell');
  world.loadBreeds(breeds as BreedData);
  const events: WorldEvent[] = [];
  world.on((e) => events.push(e));
  return { world, events };
}

describe('issue 9 repros: fuel tracks work', () => {
  it('#1 INHERIT is charged by the methods it copies (fuel) and their table entries (heap)', () => {
    const setup = `class A { ${methods(2000)} }`;
    const cost = extraCost(setup, 'class B < A {}');
    expect(cost.fuel).toBeGreaterThanOrEqual(2000);
    expect(cost.heap).toBeGreaterThanOrEqual(2000 * HEAP_COST.method);
    // The loop of the repro now ends within its fuel, having copied at most fuel methods.
    const { vm } = makeVm(`${setup}\nvar n = 0;\nspell go() { while (true) { class B < A {} n = n + 1; } }`, BIG);
    const fiber = vm.cast('go', [], { fuel: 1_000_000 });
    expect(fiber.error?.limit).toBe('fuel');
    expect((vm.getGlobal('n') as number) * 2000).toBeLessThanOrEqual(1_000_000);
  });

  it('#2 CLOSURE is charged by the upvalues it captures, the capture walk is linear, and closures are heap', () => {
    const { declare, sum } = locals(253);
    const once = costOf(`spell go() { ${declare} fun g() { return ${sum}; } }`);
    const twice = costOf(`spell go() { ${declare} fun g() { return ${sum}; } fun h() { return ${sum}; } }`);
    const closure = twice.fuel - once.fuel;
    // The second closure finds all 253 upvalues open: charged per upvalue plus the one walk,
    // far from the 253²/2 = 32,000 steps of restarting the walk per capture.
    expect(closure).toBeGreaterThanOrEqual(253);
    expect(closure).toBeLessThanOrEqual(3 * 253 + 600);
    expect(once.heap).toBeGreaterThanOrEqual(HEAP_COST.closure + 253 + 253 * HEAP_COST.upvalue);
    // Kept in a list, the closures run into the heap budget (they used to be free: 1.2 GB in one cast).
    const { vm } = makeVm(`var keep = [];\nspell go() { ${declare} while (true) { fun g() { return ${sum}; } keep.append(g); } }`, BIG);
    const fiber = vm.cast('go', [], { maxHeap: 1_000_000 });
    expect(fiber.error?.limit).toBe('heap');
    expect((vm.getGlobal('keep') as unknown as { items: unknown[] }).items.length * (HEAP_COST.closure + 253)).toBeLessThanOrEqual(1_000_000);
  });

  it('#6 spatial queries are charged by the cells and entities they visit, not by what they return', () => {
    const spells = `
      spell near(self) { nearest(self, 1000000); }
      spell inside(self) { within(0, 0, 1000000); }
      spell around(self) { nearby(self, 1000000); }
      spell idle(self) { }`;
    for (const partition of ['grid', 'axis'] as const) {
      const world = new World({ width: 1000, height: 1000, partition, budgets: { fuel: 100_000_000 } });
      world.loadSpells(spells, 'q.spell');
      world.loadBreeds({ breeds: [{ name: 'Imp' }] });
      const a = world.spawn('Imp', 0, 0);
      world.spawn('Imp', 1000, 1000);
      const fuelOf = (spell: string): number => 100_000_000 - world.cast(spell, a).fiber.fuel;
      const base = fuelOf('idle');
      // The grid (cell size 8) has 125 × 125 cells; a whole-world query visits them all.
      const expected = partition === 'grid' ? 125 * 125 : 2;
      for (const spell of ['near', 'inside', 'around']) expect(fuelOf(spell) - base, `${partition} ${spell}`).toBeGreaterThanOrEqual(expected);
    }
    // The repro's loop ends within its fuel after at most fuel / cells queries.
    const world = new World({ width: 1000, height: 1000, budgets: { fuel: 1_000_000 } });
    world.loadSpells('var n = 0; spell spin(self) { while (true) { nearest(self, 1000000); n = n + 1; } }', 's.spell');
    world.loadBreeds({ breeds: [{ name: 'Imp' }] });
    const caster = world.spawn('Imp', 0, 0);
    world.spawn('Imp', 1000, 1000);
    expect(world.cast('spin', caster).error?.limit).toBe('fuel');
    expect((world.spellVm('spin')!.getGlobal('n') as number) * 125 * 125).toBeLessThanOrEqual(1_000_000);
  });

  it('#9 print costs fuel per character, and a cast prints at most maxOutput characters', () => {
    const setup = 'var s = "x"; for (var i = 0; i < 20; i = i + 1) s = s + s;'; // 1,048,576 characters
    const { vm, printed } = makeVm(`${setup}\nspell go() { while (true) print s; }`, BIG);
    const fiber = vm.cast('go', [], { fuel: 1_000_000 });
    expect(fiber.error?.limit).toBe('fuel');
    expect(printed).toEqual([]); // 1 M characters cost more than 1 M fuel: nothing was delivered
    const loud = makeVm(`${setup}\nspell go() { while (true) print s; }`, BIG);
    const fiber2 = loud.vm.cast('go', [], { fuel: 100_000_000, maxOutput: 3_000_000 });
    expect(fiber2.error?.limit).toBe('output');
    expect(fiber2.error?.message).toMatch(/^Too much output: the cast sent out more than 3000000 characters of text\.$/);
    expect(loud.printed.join('\n').length).toBeLessThanOrEqual(3_000_000);
  });

  it('#9 say, sound and particles charge their text as fuel and output; events carry at most 1000 characters', () => {
    const big = 'var s = "x"; for (var i = 0; i < 22; i = i + 1) s = s + s;'; // 4,194,304 characters
    for (const call of ['say(self, s);', 'sound(s);', 'particles(s, 0, 0, 1);']) {
      const { world, events } = makeWorld(`${big}\nvar n = 0;\nspell go(self) { while (true) { ${call} n = n + 1; } }`, { breeds: [{ name: 'Imp' }] }, {
        budgets: { fuel: 100_000_000 },
      });
      const imp = world.spawn('Imp', 1, 1);
      const result = world.cast('go', imp);
      expect(result.error?.limit, call).toBe('fuel');
      expect(world.spellVm('go')!.getGlobal('n') as number, call).toBeLessThanOrEqual(100_000_000 / 4_194_304);
      world.flush();
      const texts = events.flatMap((e) => (e.type === 'say' ? [e.text] : e.type === 'sound' ? [e.name] : e.type === 'particles' ? [e.kind] : []));
      expect(texts.length, call).toBeGreaterThan(0);
      for (const t of texts) expect(t, call).toMatch(/^x{1000}… \(4,194,304 characters\)$/);
    }
  });

  it('field transitions and shape creation are charged: a new class per iteration with 64 fields', () => {
    const fields = Array.from({ length: 64 }, (_, i) => `o.f${i} = ${i};`).join(' ');
    const cost = extraCost('', `class C {} var o = C(); ${fields}`);
    // 64 new fields, 64 new shapes listing 1..64 fields.
    expect(cost.heap).toBeGreaterThanOrEqual(64 * HEAP_COST.field + HEAP_COST.shapeField * ((64 * 65) / 2));
    expect(cost.fuel).toBeGreaterThanOrEqual((64 * 65) / 2);
    // A second instance of the same class reuses the shapes: only its fields are new.
    const again = extraCost('class C {}', `var o = C(); ${fields} var p = C(); ${fields.replaceAll('o.', 'p.')}`);
    expect(again.heap - cost.heap).toBeLessThanOrEqual(HEAP_COST.instance + 64 * HEAP_COST.field + 8);
  });
});

describe('issue 9 repros: the verifier, its limits and the listing', () => {
  function closureModule(upvalues: number, closures: number): Module {
    const module = compileOrThrow('fun g() { return 1; }');
    const g = module.functions.findIndex((f) => f.name === 'g');
    const captures = Array.from({ length: upvalues }, () => ({ isLocal: true, index: 0 }));
    Object.assign(module.functions[g]!, { upvalues: captures });
    const code: number[] = [];
    for (let i = 0; i < closures; i++) code.push(Op.CLOSURE, g, Op.POP);
    code.push(Op.NIL, Op.RETURN);
    const script = module.functions[0]!;
    Object.assign(script, { code: Int32Array.from(code), lines: new Int32Array(code.length), maxStack: Math.max(script.maxStack, 4) });
    return module;
  }

  it('#3 a function with more than 256 upvalues is refused with a clean VerifyError', () => {
    expect(() => verifyModule(closureModule(65_536, 1), WORLD_HOST_FUNCTIONS)).toThrow(VerifyError);
    expect(() => verifyModule(closureModule(65_536, 1), WORLD_HOST_FUNCTIONS)).toThrow(/Too many upvalues \(65536; the limit is 256\)/);
    expect(() => verifyModule(closureModule(VERIFIER_LIMITS.upvalues, 1), WORLD_HOST_FUNCTIONS)).not.toThrow();
  });

  it('#4 the verifier handles 200,000 CLOSUREs of a 256-upvalue function (checked in O(1) each)', () => {
    expect(() => verifyModule(closureModule(256, 200_000), WORLD_HOST_FUNCTIONS)).not.toThrow();
  });

  it('#4 an import with more than 256 arities, or constants past 16 M characters, are refused', () => {
    const module = compileOrThrow('print len("a");');
    Object.assign(module.hostImports[0]!, { arities: new Array<number>(300_000).fill(1) });
    expect(() => verifyModule(module, WORLD_HOST_FUNCTIONS)).toThrow(/declares 300000 arities \(the limit is 256\)/);
    const text = compileOrThrow('print "a";');
    (text.constants as (string | number)[]).push('x'.repeat(VERIFIER_LIMITS.constantChars));
    expect(() => verifyModule(text, WORLD_HOST_FUNCTIONS)).toThrow(/Too much constant text/);
  });

  it('#5 the listing prints a long constant once in full and abbreviates each use', () => {
    const module = compileOrThrow('var s = "a";');
    const long = 'q'.repeat(1_000_000);
    const index = (module.constants as (string | number)[]).push(long) - 1;
    const code: number[] = [];
    for (let i = 0; i < 200_000; i++) code.push(Op.CONSTANT, index, Op.POP);
    code.push(Op.NIL, Op.RETURN);
    Object.assign(module.functions[0]!, { code: Int32Array.from(code), lines: new Int32Array(code.length) });
    verifyModule(module, WORLD_HOST_FUNCTIONS);
    const listing = disassemble(module);
    const section = listing.indexOf('-- long constants');
    expect(section).toBeGreaterThan(0);
    expect(listing.slice(section)).toContain(long);
    expect(listing.slice(0, section).includes('q'.repeat(61))).toBe(false);
    expect(listing).toContain(`'${'q'.repeat(60)}…' (1,000,000 chars)`);
    // Proportional to the file: the constant once, and a bounded line per instruction.
    expect(listing.length).toBeLessThan(1_000_000 + 400_000 * 120);
  });
});

describe('issue 9 repros: memory and output that outlive a cast', () => {
  it('#7 waiting casts count against the world heap budget: those past it fail, the rest wait', () => {
    const zeros = Array.from({ length: 6000 }, () => '0').join(', ');
    const { world, events } = makeWorld(
      `spell hold(self, dt) { var l = [${zeros}]; wait(600); }`,
      { breeds: [{ name: 'Imp', spells: { tick: 'hold' } }] },
      { capacity: 256, maxWorldHeap: 200_000 },
    );
    for (let i = 0; i < 200; i++) world.spawn('Imp', i % 100, Math.floor(i / 100));
    world.step();
    const refused = events.filter((e) => e.type === 'cast-error');
    expect(world.waitingCasts).toBeGreaterThan(0);
    expect(world.waitingCasts * (6000 + HEAP_COST.list)).toBeLessThanOrEqual(200_000);
    expect(refused.length).toBe(200 - world.waitingCasts);
    expect(refused[0]).toMatchObject({ message: "Out of memory: this world's waiting casts and entity fields would hold more than 200000 heap units." });
    // The next step starts more casts, and they are refused too: the world holds no more.
    world.step();
    expect(world.waitingCasts * (6000 + HEAP_COST.list)).toBeLessThanOrEqual(200_000);
  });

  it('#8 strings copied into errors are cut, with their length said', () => {
    const big = 'var s = "x"; for (var i = 0; i < 22; i = i + 1) s = s + s;';
    const { world, events } = makeWorld(`${big}\nspell a(self) { spawn(s, 0, 0); }\nspell b(self) { buff(self, s, 1, 1); }\nspell c(self) { self.nope(s); }`, {
      breeds: [{ name: 'Imp' }],
    }, { budgets: { fuel: 100_000_000 } });
    const imp = world.spawn('Imp', 1, 1);
    for (const spell of ['a', 'b']) {
      const error = world.cast(spell, imp).error!;
      expect(error.message).toMatch(/'x{200}…' \(4,194,304 characters\)/);
      expect(error.message.length).toBeLessThan(400);
    }
    world.flush();
    for (const e of events) if (e.type === 'cast-error') expect(e.trace.length).toBeLessThan(2000);
  });

  it('#10 entity fields count against the world budget, and snapshot() refuses a world too large to save', () => {
    const big = 'var s = "x"; for (var i = 0; i < 22; i = i + 1) s = s + s;'; // 4 M characters
    const breeds = { breeds: [{ name: 'Imp', spells: { tick: 'tag' } }] };
    const { world, events } = makeWorld(`${big}\nspell tag(self, dt) { self.note = s; }`, breeds, {
      capacity: 64,
      budgets: { fuel: 100_000_000 },
      maxWorldHeap: 20_000_000,
    });
    for (let i = 0; i < 64; i++) world.spawn('Imp', i, 1);
    world.step();
    const refused = events.filter((e) => e.type === 'cast-error');
    expect(refused.length).toBe(64 - 4); // 4 fields of 4 M characters fit in 20 M units
    expect(refused[0]).toMatchObject({ message: expect.stringMatching(/^Out of memory: this world's/) });
    // Despawning frees the fields' share of the budget.
    for (const e of world.entities()) world.despawn(e.id);
    world.spawn('Imp', 1, 1);
    events.length = 0;
    world.step();
    expect(events.filter((e) => e.type === 'cast-error')).toEqual([]);

    // A world under its heap budget can still be too large to snapshot: refused while building.
    const wide = makeWorld(`${big}\nspell tag(self, dt) { self.note = s; }`, breeds, {
      capacity: 64,
      budgets: { fuel: 100_000_000 },
      maxWorldHeap: 1e12,
      maxSnapshotChars: 10_000_000,
    });
    for (let i = 0; i < 8; i++) wide.world.spawn('Imp', i, 1);
    wide.world.step();
    expect(() => wide.world.snapshot()).toThrow(WorldError);
    expect(() => wide.world.snapshot()).toThrow(/too large to snapshot: its JSON would pass 10,000,000 characters/);
  });

  it('a step starts at most maxHandlerCastsPerStep AOI handler casts, and says how many it dropped', () => {
    const { world, events } = makeWorld('var met = 0; spell greet(self, other) { met = met + 1; }', {
      breeds: [{ name: 'Watcher', interest: 10, spells: { onEnter: 'greet' } }],
    }, { capacity: 400, maxHandlerCastsPerStep: 1000 });
    for (let i = 0; i < 300; i++) world.spawn('Watcher', 50 + (i % 10) * 0.1, 50 + Math.floor(i / 10) * 0.1);
    world.step();
    expect(world.spellVm('greet')!.getGlobal('met')).toBe(1000);
    const overload = events.find((e) => e.type === 'overload');
    expect(overload).toMatchObject({ type: 'overload', droppedCasts: 300 * 299 - 1000 });
  });

  it('a step queues at most maxEventsPerStep effect events, and says how many it dropped', () => {
    const { world, events } = makeWorld('spell noisy(self, dt) { for (var i = 0; i < 100; i = i + 1) sound("boom"); }', {
      breeds: [{ name: 'Imp', spells: { tick: 'noisy' } }],
    }, { maxEventsPerStep: 500 });
    for (let i = 0; i < 20; i++) world.spawn('Imp', i, 1);
    world.flush();
    events.length = 0;
    world.step();
    expect(events.filter((e) => e.type === 'sound').length).toBe(500);
    expect(events.at(-1)).toMatchObject({ type: 'overload', droppedEvents: 20 * 100 - 500, droppedCasts: 0 });
  });
});

describe('every allocation is charged to the heap budget', () => {
  const rows: { what: string; setup?: string; body: string; atLeast: number }[] = [
    { what: 'a string', setup: 'var a = "abcdefgh";', body: 'var s = a + a;', atLeast: 16 },
    { what: 'a list', body: 'var l = [1, 2, 3];', atLeast: HEAP_COST.list + 3 },
    { what: 'an appended element', setup: 'var l = [];', body: 'l.append(1);', atLeast: 1 },
    { what: 'a closure', body: 'var x = 1; fun f() { return x; }', atLeast: HEAP_COST.closure + 1 + HEAP_COST.upvalue },
    { what: 'a class with methods', body: 'class K { a() {} b() {} }', atLeast: HEAP_COST.class + 2 * HEAP_COST.method },
    { what: 'an instance and its fields', setup: 'class K {} var k0 = K(); k0.x = 1; k0.y = 2;', body: 'var k = K(); k.x = 1; k.y = 2;', atLeast: HEAP_COST.instance + 2 * HEAP_COST.field },
    { what: 'a bound method', setup: 'class K { m() {} } var k = K();', body: 'var b = k.m;', atLeast: HEAP_COST.boundMethod },
    { what: 'str() of a list', setup: 'var l = [1, 2, 3];', body: 'var t = str(l);', atLeast: 9 },
    { what: 'a map literal', body: 'var m = {"a": 1, "b": 2, "c": 3};', atLeast: HEAP_COST.map + 3 * HEAP_COST.mapEntry },
    { what: 'a new map key', setup: 'var m = {};', body: 'm["k"] = 1;', atLeast: HEAP_COST.mapEntry },
    { what: 'for-in over a map (its key snapshot)', setup: 'var m = {"a": 1, "b": 2, "c": 3};', body: 'for (k in m) {}', atLeast: HEAP_COST.list + 3 },
    { what: 'keys() of a map', setup: 'var m = {"a": 1, "b": 2, "c": 3};', body: 'var l = m.keys();', atLeast: HEAP_COST.list + 3 },
    { what: 'a template string', setup: 'var n = 12345;', body: 'var t = `n=${n}`;', atLeast: 7 },
    { what: 'split of a string', setup: 'var s = "a,b,c";', body: 'var l = s.split(",");', atLeast: HEAP_COST.list + 3 + 3 },
    { what: 'slice of a list', setup: 'var l = [1, 2, 3, 4];', body: 'var p = l.slice(1);', atLeast: HEAP_COST.list + 3 },
  ];
  for (const { what, setup = '', body, atLeast } of rows) {
    it(`${what}: at least ${atLeast} units`, () => {
      expect(extraCost(setup, body).heap).toBeGreaterThanOrEqual(atLeast);
    });
  }

  it('a map charges by the table: the map, each entry once, and an overwrite nothing', () => {
    expect(extraCost('', 'var m = {"a": 1, "b": 2};').heap).toBe(HEAP_COST.map + 2 * HEAP_COST.mapEntry);
    expect(extraCost('var m = {};', 'm["a"] = 1; m["b"] = 2; m["a"] = 3;').heap).toBe(2 * HEAP_COST.mapEntry);
    expect(extraCost('var m = {"a": 1};', 'for (k in m) {} for (k in m) {}').heap).toBe(2 * (HEAP_COST.list + 1));
  });

  it('keeping any of them in a loop ends the cast with the heap budget, not the process', () => {
    const keepers = ['keep.append(K());', 'keep.append(fun_());', 'class C < K {} keep.append(C);', 'keep.append(k.m);', 'keep.append([]);', 'keep.append({});', 'keep.append(`${k}`);'];
    for (const keeper of keepers) {
      const source = `class K { m() {} } var k = K(); var keep = [];\nfun fun_() { var x = 1; fun g() { return x; } return g; }\nspell go() { while (true) { ${keeper} } }`;
      const { module } = compile(source, { sourceName: 'k.spell' });
      expect(module, keeper).not.toBeNull();
      const { vm } = makeVm(source, { fuel: 100_000_000 });
      const fiber = vm.cast('go', [], { maxHeap: 200_000 });
      expect(fiber.error?.limit, keeper).toBe('heap');
    }
  });
});
