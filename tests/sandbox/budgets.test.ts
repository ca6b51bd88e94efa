/**
 * Budgets: every limit (fuel, call depth, value stack, heap, live fibers,
 * longest wait) ends the cast with a clean SpellRuntimeError naming the limit
 * and the line; each is configurable per VM and per cast; the VM (and the
 * world) go on running other casts afterwards. Host builtins charge for
 * their own work, so none lets a cast run past its budget: measured here as
 * fuel consumed against work done, never as wall-clock time.
 */

import { describe, expect, it } from 'vitest';
import { World } from '../../runtime/world/world.js';
import type { Budgets } from '../../vm/budgets.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { SpellRuntimeError, type BudgetLimit } from '../../vm/errors.js';
import type { HostFunction } from '../../vm/host.js';
import { makeVm, PAUSE } from './sandbox-helpers.js';

/** The 1-based line of the first line containing `// <-`. */
function markedLine(source: string): number {
  const index = source.split('\n').findIndex((line) => line.includes('// <-'));
  if (index < 0) throw new Error('no // <- marker');
  return index + 1;
}

interface LimitCase {
  readonly limit: BudgetLimit;
  readonly title: string;
  readonly message: RegExp;
  readonly budgets: Partial<Budgets>;
  /** Defines `spell go()`, which exceeds the limit on the marked line. */
  readonly source: string;
}

const LIMIT_CASES: readonly LimitCase[] = [
  {
    limit: 'fuel',
    title: 'an infinite loop',
    message: /^Out of fuel: the cast ran more than 1000 instructions\.$/,
    budgets: { fuel: 1_000 },
    source: 'spell go() {\n  var i = 0;\n  while (true) { i = i + 1; } // <-\n}\n',
  },
  {
    limit: 'fuel',
    title: 'deep recursion within the frame budget: calls pay fuel too',
    message: /^Out of fuel/,
    budgets: { fuel: 1_000, maxFrames: 100_000, maxStack: 1_000_000 },
    source: 'fun r(n) { return r(n + 1); } // <-\nspell go() {\n  r(0);\n}\n',
  },
  {
    limit: 'call depth',
    title: 'unbounded recursion',
    message: /^Stack overflow\.$/,
    budgets: { maxFrames: 20 },
    source: 'fun r(n) { return r(n + 1); } // <-\nspell go() {\n  r(0);\n}\n',
  },
  {
    limit: 'call depth',
    title: 'mutual recursion through methods',
    message: /^Stack overflow\.$/,
    budgets: { maxFrames: 30 },
    source: 'class A { ping() { return this.pong(); } pong() { return this.ping(); } } // <-\nspell go() {\n  A().ping();\n}\n',
  },
  {
    limit: 'stack',
    title: 'recursion with big frames',
    message: /^Stack overflow: the cast used more than 300 stack slots\.$/,
    budgets: { maxStack: 300, maxFrames: 100_000 },
    source:
      'fun r(n) { var a = 1; var b = 2; var c = 3; var d = 4; var e = 5; var f = 6; var g = 7; var h = 8; return r(n + 1); } // <-\n' +
      'spell go() {\n  r(0);\n}\n',
  },
  {
    limit: 'heap',
    title: 'string doubling',
    message: /^Out of memory: the cast allocated more than 10000 heap units \(list elements, string characters, objects\)\.$/,
    budgets: { maxHeap: 10_000 },
    source: 'spell go() {\n  var s = "ab";\n  while (true) s = s + s; // <-\n}\n',
  },
  {
    limit: 'heap',
    title: 'list growth by append',
    message: /^Out of memory/,
    budgets: { maxHeap: 1_000 },
    source: 'spell go() {\n  var l = [];\n  while (true) l.append(l); // <-\n}\n',
  },
  {
    limit: 'heap',
    title: 'list literals in a loop',
    message: /^Out of memory/,
    budgets: { maxHeap: 1_000 },
    source: 'spell go() {\n  var keep = [];\n  while (true) keep = [keep, keep, keep]; // <-\n}\n',
  },
  {
    limit: 'heap',
    title: 'str() of a big list',
    message: /^Out of memory/,
    budgets: { maxHeap: 3_000 },
    source: 'spell go() {\n  var l = [];\n  for (var i = 0; i < 400; i = i + 1) l.append(1234567);\n  var text = str(l); // <-\n}\n',
  },
];

const OK_SPELL = '\nspell ok() { return 42; }\n';

function expectLimit(error: SpellRuntimeError | null, c: LimitCase): void {
  expect(error).toBeInstanceOf(SpellRuntimeError);
  expect(error!.limit).toBe(c.limit);
  expect(error!.message).toMatch(c.message);
  expect(error!.line).toBe(markedLine(c.source));
  expect(error!.spell).toBe('go');
  expect(error!.format()).toContain(`[line ${markedLine(c.source)}]`);
}

describe.each(LIMIT_CASES)('the $limit budget: $title', (c) => {
  it('set on the VM: a clean SpellRuntimeError naming the limit and the line', () => {
    const { vm } = makeVm(c.source + OK_SPELL, c.budgets);
    const fiber = vm.cast('go', []);
    expect(fiber.state).toBe('failed');
    expectLimit(fiber.error, c);
  });

  it('set on one cast: that cast fails, casts without it do not', () => {
    const { vm } = makeVm(c.source + OK_SPELL, { fuel: 200_000 });
    const limited = vm.cast('go', [], c.budgets);
    expect(limited.state).toBe('failed');
    expectLimit(limited.error, c);
  });

  it('the VM goes on: other casts run, the same cast fails the same way again', () => {
    const { vm } = makeVm(c.source + OK_SPELL, c.budgets);
    const first = vm.cast('go', []);
    const ok = vm.cast('ok', []);
    expect(ok.state).toBe('done');
    expect(ok.result).toBe(42);
    const again = vm.cast('go', []);
    expect(again.error?.message).toBe(first.error?.message);
    expect(again.error?.line).toBe(first.error?.line);
    expect(vm.liveFiberCount).toBe(0);
  });
});

describe('per-cast budgets override the VM defaults both ways', () => {
  const source = 'spell count(n) { var i = 0; while (i < n) i = i + 1; return i; }';

  it('a cast may get more fuel than the VM default', () => {
    const { vm } = makeVm(source, { fuel: 1_000 });
    expect(vm.cast('count', [5_000]).error?.limit).toBe('fuel');
    const generous = vm.cast('count', [5_000], { fuel: 1_000_000 });
    expect(generous.state).toBe('done');
    expect(generous.result).toBe(5_000);
  });

  it('a cast may get less', () => {
    const { vm } = makeVm(source, { fuel: 1_000_000 });
    expect(vm.cast('count', [5_000]).result).toBe(5_000);
    expect(vm.cast('count', [5_000], { fuel: 100 }).error?.limit).toBe('fuel');
  });

  it('fuel is per cast, not shared: many casts that each fit all succeed', () => {
    const { vm } = makeVm(source, { fuel: 10_000 });
    expect(vm.cast('count', [5_000]).error?.limit).toBe('fuel');
    for (let i = 0; i < 50; i++) expect(vm.cast('count', [300]).state).toBe('done');
  });

  it('an infinite budget is allowed (the CLI runs that way) and still ends a finite loop', () => {
    const { vm } = makeVm(source, { fuel: Infinity });
    expect(vm.cast('count', [10_000]).result).toBe(10_000);
  });
});

describe('the live-fiber budget', () => {
  const source = 'spell nap() { pause(); return 1; } // <-\nspell ok() { return 2; }';

  it('refuses a cast beyond maxFibers, cleanly, and accepts one again when a fiber ends', () => {
    const { vm } = makeVm(source, { maxFibers: 2 });
    const a = vm.cast('nap', []);
    const b = vm.cast('nap', []);
    expect([a.state, b.state]).toEqual(['suspended', 'suspended']);
    const c = vm.cast('nap', []);
    expect(c.state).toBe('failed');
    expect(c.error).toBeInstanceOf(SpellRuntimeError);
    expect(c.error!.limit).toBe('fibers');
    expect(c.error!.message).toBe('Too many fibers: more than 2 casts are alive at once.');
    expect(vm.resume(a).state).toBe('done');
    expect(vm.cast('ok', []).result).toBe(2);
    expect(vm.cast('nap', []).state).toBe('suspended');
    vm.cancel(b);
    expect(vm.liveFiberCount).toBe(1);
  });

  it('is configurable per cast', () => {
    const { vm } = makeVm(source);
    vm.cast('nap', []);
    expect(vm.cast('nap', [], { maxFibers: 1 }).error?.limit).toBe('fibers');
    expect(vm.cast('nap', []).state).toBe('suspended');
  });
});

describe('the longest-wait budget', () => {
  /** A bare-VM wait: checks the budget through the HostContext like the runtime's wait does. */
  const NAP: HostFunction = {
    name: 'nap',
    params: [{ name: 'seconds', type: 'number' }],
    returns: 'nil',
    doc: 'Wait.',
    impl: (ctx, seconds) => {
      ctx.checkWait(seconds as number);
      ctx.suspend();
      return null;
    },
  };
  const hosts = [...CORE_HOST_FUNCTIONS, NAP];
  const source = 'spell go(s) {\n  nap(s); // <-\n  return s;\n}';

  it('ends a cast that waits longer, naming the limit and the line; per VM and per cast', () => {
    const { vm } = makeVm(source, { hosts, maxWait: 5 });
    const long = vm.cast('go', [6]);
    expect(long.state).toBe('failed');
    expect(long.error!.limit).toBe('wait');
    expect(long.error!.message).toBe('Wait too long: the longest wait allowed is 5 seconds.');
    expect(long.error!.line).toBe(2);
    const fine = vm.cast('go', [5]);
    expect(fine.state).toBe('suspended');
    expect(vm.resume(fine).result).toBe(5);
    expect(vm.cast('go', [6], { maxWait: 10 }).state).toBe('suspended');
    expect(vm.cast('go', [2], { maxWait: 1 }).error?.limit).toBe('wait');
  });

  it('NaN and infinite waits are refused too', () => {
    const { vm } = makeVm(source, { hosts, maxWait: 5 });
    expect(vm.cast('go', [Infinity]).error?.limit).toBe('wait');
    expect(vm.cast('go', [0 / 0]).error?.limit).toBe('wait');
  });

  it('in a world: wait(…) past maxWait fails that cast; the world and its other casts go on', () => {
    const world = new World({ width: 20, height: 20, budgets: { maxWait: 5 } });
    world.loadSpells('spell sleepy(self) {\n  wait(100); // <-\n}\nspell fine(self) { wait(0.2); print "woke"; }', 'w.spell');
    world.loadBreeds({ breeds: [{ name: 'Imp' }] });
    const imp = world.spawn('Imp', 1, 1);
    const printed: string[] = [];
    world.on((e) => {
      if (e.type === 'print') printed.push(e.text);
    });
    const fine = world.cast('fine', imp);
    const sleepy = world.cast('sleepy', imp);
    expect(fine.state).toBe('suspended');
    expect(sleepy.state).toBe('failed');
    expect(sleepy.error!.limit).toBe('wait');
    expect(sleepy.error!.line).toBe(2);
    world.tick(0.3);
    expect(printed).toEqual(['woke']);
  });
});

describe('the world goes on after any budget ends a cast', () => {
  it('fuel, depth, heap failures stay in their cast; ticks and other casts carry on', () => {
    const world = new World({ width: 20, height: 20, budgets: { fuel: 5_000, maxFrames: 20, maxHeap: 5_000 } });
    world.loadSpells(
      'spell spin(self) { while (true) {} }\n' +
        'fun r(n) { return r(n + 1); }\nspell deep(self) { r(0); }\n' +
        'spell hog(self) { var s = "x"; while (true) s = s + s; }\n' +
        'spell step(self, dt) { print "step"; }',
      'w.spell',
    );
    world.loadBreeds({ breeds: [{ name: 'Imp', spells: { tick: 'step' } }] });
    const imp = world.spawn('Imp', 1, 1);
    let steps = 0;
    world.on((e) => {
      if (e.type === 'print' && e.text === 'step') steps++;
    });
    const limits = ['spin', 'deep', 'hog'].map((spell) => world.cast(spell, imp).error?.limit);
    expect(limits).toEqual(['fuel', 'call depth', 'heap']);
    world.tick(0.5);
    expect(steps).toBe(5);
    expect(['spin', 'deep', 'hog'].map((spell) => world.cast(spell, imp).error?.limit)).toEqual(['fuel', 'call depth', 'heap']);
  });
});

describe('host builtins charge for their own work', () => {
  /** Fuel a finished cast used. */
  function fuelUsed(source: string, spell: string, budgets: Partial<Budgets> = {}): { used: number; result: unknown } {
    const { vm } = makeVm(source, { fuel: 10_000_000, maxHeap: 100_000_000, ...budgets });
    const fiber = vm.cast(spell, []);
    expect(fiber.error).toBeNull();
    return { used: (budgets.fuel ?? 10_000_000) - fiber.fuel, result: fiber.result };
  }

  const BIG_LIST = 'var l = []; for (var i = 0; i < 20000; i = i + 1) l.append(i);\n';

  it('str() of a list: fuel at least its text length', () => {
    const { used, result } = fuelUsed(BIG_LIST + 'spell go() { return len(str(l)); }', 'go');
    expect(result).toBeGreaterThan(100_000);
    expect(used).toBeGreaterThanOrEqual(result as number);
  });

  it('print of a list: fuel at least its text length', () => {
    const { used } = fuelUsed(BIG_LIST + 'spell go() { print l; }', 'go');
    expect(used).toBeGreaterThan(100_000);
  });

  it('list.remove(0): fuel for the elements it shifts', () => {
    const { used } = fuelUsed(BIG_LIST + 'spell go() { l.remove(0); }', 'go');
    expect(used).toBeGreaterThanOrEqual(19_999);
  });

  it('a str() that would run past the fuel left fails with the fuel error instead of finishing', () => {
    const { vm } = makeVm(BIG_LIST + 'spell go() { return str(l); }');
    const fiber = vm.cast('go', [], { fuel: 10_000 });
    expect(fiber.error?.limit).toBe('fuel');
  });

  it('a list printed inside itself many times is bounded by fuel, not exponential', () => {
    const { vm, printed } = makeVm('spell go() { var l = [1]; for (var i = 0; i < 40; i = i + 1) l = [l, l]; print l; }');
    const fiber = vm.cast('go', [], { fuel: 100_000 });
    expect(fiber.error?.limit).toBe('fuel');
    expect(printed).toEqual([]);
  });

  // Regression (found by the program fuzzer): display recursed per nesting level, so str() of a
  // list nested 100,000 deep overflowed the JS stack and leaked "Maximum call stack size exceeded".
  it('str() and print of a list nested 100,000 deep end cleanly, showing [...] past 256 levels', () => {
    const { vm, printed } = makeVm('var l = [];\nfor (var i = 0; i < 100000; i = i + 1) l = [l];\nspell text() { return str(l); }\nspell show() { print l; }');
    const text = vm.cast('text', []);
    expect(text.error).toBeNull();
    expect(text.result).toBe('['.repeat(256) + '[...]' + ']'.repeat(256));
    expect(vm.cast('show', []).error).toBeNull();
    expect(printed).toEqual([text.result]);
  });

  it('string concatenation charges the heap by the length it creates', () => {
    const { vm } = makeVm('var s = "x"; for (var i = 0; i < 14; i = i + 1) s = s + s;\nspell go() { var t = s + s; return len(t); }');
    const fiber = vm.cast('go', []);
    expect(fiber.result).toBe(2 * 16_384);
    expect(fiber.heapUsed).toBeGreaterThanOrEqual(2 * 16_384);
  });

  // Regression (found by this suite): `==` on two long strings of one length compares them
  // character by character; it was free, so a loop of it ran ~100 s on the default fuel.
  it('== on long strings charges fuel by their length', () => {
    const source =
      'var s = "x"; for (var i = 0; i < 20; i = i + 1) s = s + s;\n' + // 1,048,576 characters
      'var t = s + "y"; var u = s + "z"; var n = 0;\n' +
      'spell go() { while (true) { if (t == u) print "same"; n = n + 1; } }';
    const { vm } = makeVm(source, { maxHeap: 100_000_000 });
    const fuel = 1_000_000;
    const fiber = vm.cast('go', [], { fuel });
    expect(fiber.error?.limit).toBe('fuel');
    const compares = vm.getGlobal('n') as number;
    // Each compare reads ~1M characters; at least one fuel per 64 of them.
    expect(compares * ((1 << 20) / 64)).toBeLessThanOrEqual(fuel);
  });

  it('== on short or different-length strings costs what == on numbers costs', () => {
    const loop = (a: string, b: string): string =>
      `var a = ${a}; var b = ${b};\nspell go() { var n = 0; for (var i = 0; i < 1000; i = i + 1) if (a == b) n = n + 1; return n; }`;
    const numbers = fuelUsed(loop('1', '2'), 'go').used;
    expect(fuelUsed(loop('"abc"', '"abd"'), 'go').used).toBe(numbers);
    const long = 'var s = "x"; for (var i = 0; i < 16; i = i + 1) s = s + s;\n';
    expect(fuelUsed(long + loop('s', 's + "!"'), 'go').used).toBe(numbers);
  });

  it('no loop over a builtin does more work than its fuel pays for', () => {
    // Each row: a loop body whose work per iteration is `work` units; the loop must stop
    // (fuel or heap) before iterations × work exceeds a small multiple of the budget.
    const rows: { body: string; work: number; setup: string }[] = [
      { setup: BIG_LIST, body: 'str(l);', work: 20_000 },
      { setup: BIG_LIST, body: 'print l;', work: 20_000 },
      { setup: BIG_LIST, body: 'l.append(l.remove(0));', work: 20_000 },
      { setup: 'var s = "x"; for (var i = 0; i < 17; i = i + 1) s = s + s; var t = s + "a"; var u = s + "b";', body: 't == u;', work: (1 << 17) / 64 },
      { setup: 'var s = "x"; for (var i = 0; i < 17; i = i + 1) s = s + s;', body: 'var c = s + "!";', work: 1 << 17 },
    ];
    const fuel = 2_000_000;
    const maxHeap = 4_000_000;
    for (const { setup, body, work } of rows) {
      const { vm } = makeVm(`${setup}\nvar n = 0;\nspell go() { while (true) { ${body} n = n + 1; } }`, { maxHeap: 100_000_000, fuel: 100_000_000 });
      const fiber = vm.cast('go', [], { fuel, maxHeap });
      expect(['fuel', 'heap', 'output'], body).toContain(fiber.error?.limit);
      const iterations = vm.getGlobal('n') as number;
      expect(iterations * work, body).toBeLessThanOrEqual(4 * Math.max(fuel, maxHeap));
    }
  });
});

describe('game host functions charge for what they return', () => {
  function crowd(budgets: Partial<Budgets>, count: number): { world: World; center: number } {
    const world = new World({ width: 100, height: 100, capacity: count + 10, budgets });
    world.loadSpells(
      'spell look(self) { return len(nearby(self, 2)); }\n' +
        'spell around(self) { return len(within(self.x, self.y, 2)); }\n' +
        'spell seek(self) { return nearest(self, 50, "Nobody"); }',
      'w.spell',
    );
    world.loadBreeds({ breeds: [{ name: 'Imp' }, { name: 'Nobody' }] });
    let center = 0;
    for (let i = 0; i < count; i++) center = world.spawn('Imp', 50 + (i % 10) * 0.01, 50 + Math.floor(i / 10) * 0.001);
    return { world, center };
  }

  it('nearby and within returning 3,000 entities cost at least 3,000 fuel', () => {
    const rich = crowd({ fuel: 1_000_000 }, 3_000);
    expect(rich.world.cast('look', rich.center).result).toBe(3_000);
    expect(rich.world.cast('around', rich.center).result).toBe(3_000);
    const poor = crowd({ fuel: 2_500 }, 3_000);
    expect(poor.world.cast('look', poor.center).error?.limit).toBe('fuel');
    expect(poor.world.cast('around', poor.center).error?.limit).toBe('fuel');
  });

  it('a nearby() list counts against the heap budget', () => {
    const small = crowd({ fuel: 1_000_000, maxHeap: 1_000 }, 3_000);
    expect(small.world.cast('look', small.center).error?.limit).toBe('heap');
  });

  it('nearest with a filter pays for every entity it looks at', () => {
    const poor = crowd({ fuel: 1_000 }, 3_000);
    expect(poor.world.cast('seek', poor.center).error?.limit).toBe('fuel');
    const rich = crowd({ fuel: 1_000_000 }, 3_000);
    expect(rich.world.cast('seek', rich.center).state).toBe('done');
  });
});

describe('a suspended cast keeps its remaining budget', () => {
  it('fuel spent before a pause still counts after resume', () => {
    const { vm } = makeVm('spell go() { var i = 0; while (i < 100) i = i + 1; pause(); while (true) i = i + 1; }', {
      hosts: [...CORE_HOST_FUNCTIONS, PAUSE],
    });
    const fiber = vm.cast('go', [], { fuel: 50_000 });
    expect(fiber.state).toBe('suspended');
    const left = fiber.fuel;
    expect(left).toBeLessThan(50_000);
    vm.resume(fiber);
    expect(fiber.error?.limit).toBe('fuel');
  });
});
