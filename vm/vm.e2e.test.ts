/** The VM end to end: spell source through the real compiler. */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import { HostError } from './errors.js';
import type { HostFunction } from './host.js';
import { VM, type VMOptions } from './vm.js';

const wait: HostFunction = {
  name: 'wait',
  params: [{ name: 'seconds', type: 'number' }],
  returns: 'nil',
  doc: 'Suspend the cast.',
  impl: (ctx, seconds) => {
    ctx.checkWait(seconds as number);
    ctx.suspend();
    return null;
  },
};
const explode: HostFunction = {
  name: 'explode',
  params: [{ name: 'power', type: 'number' }],
  returns: 'nil',
  doc: 'Fails.',
  impl: (_ctx, power) => {
    if ((power as number) > 5) throw new HostError('The fireball fizzles.');
    throw new Error('kaboom');
  },
};
const HOSTS = [...CORE_HOST_FUNCTIONS, wait, explode];

function load(source: string, options: VMOptions = {}) {
  const { module, diagnostics } = compile(source, { hosts: HOSTS });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const out: string[] = [];
  const vm = new VM(module, { hosts: HOSTS, print: (t) => out.push(t), ...options });
  return { vm, out };
}

function run(source: string, options: VMOptions = {}) {
  const { vm, out } = load(source, options);
  const fiber = vm.runScript();
  return { vm, out, fiber, error: fiber.error };
}

describe('Lox semantics end to end', () => {
  it('closures capture variables, not values, and survive their frames', () => {
    const { out } = run(`
      fun makeCounter() { var n = 0; fun inc() { n = n + 1; return n; } return inc; }
      var a = makeCounter(); var b = makeCounter();
      a(); a(); b();
      print a(); print b();
      var fns = [];
      for (var i = 0; i < 3; i = i + 1) { var j = i; fun f() { return j; } fns.append(f); }
      print fns[0](); print fns[2]();
      fun outer() { var x = "before"; fun get() { return x; } x = "after"; return get; }
      print outer()();
    `);
    expect(out).toEqual(['3', '2', '0', '2', 'after']);
  });

  it('for-in gives each iteration a fresh variable', () => {
    const { out } = run(`
      var fns = [];
      for (x in [1, 2, 3]) { fun f() { return x; } fns.append(f); }
      for (f in fns) print f();
    `);
    expect(out).toEqual(['1', '2', '3']);
  });

  it('classes: init, this, methods, bound methods, inheritance, super', () => {
    const { out } = run(`
      class Troll {
        init(name) { this.name = name; this.hp = 10; }
        hit(n) { this.hp = this.hp - n; return this; }
        describe() { return this.name + ":" + str(this.hp); }
      }
      class Archer < Troll {
        init(name) { super.init(name + " the archer"); }
        describe() { return "[" + super.describe() + "]"; }
      }
      var t = Archer("Grug");
      print t.hit(3).hit(2).describe();
      var d = t.describe; print d();
      print Archer; print t; print t.init("Zog").describe();
      print Troll("x").hit;
    `);
    expect(out).toEqual(['[Grug the archer:5]', '[Grug the archer:5]', 'Archer', 'Archer instance', '[Zog the archer:10]', '<fn hit>']);
  });

  it('__proto__, constructor, prototype, toString, hasOwnProperty are ordinary fields', () => {
    const names = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
    for (const name of names) {
      const missing = run(`class A {} var a = A(); print a.${name};`);
      expect(missing.error!.message).toBe(`Undefined property '${name}'.`);
      const field = run(`class A {} var a = A(); a.${name} = 7; print a.${name} + 1;`);
      expect(field.out).toEqual(['8']);
      const method = run(`class A { ${name}() { return "m"; } } print A().${name}();`);
      expect(method.out).toEqual(['m']);
      const list = run(`var l = [1]; print l.${name};`);
      expect(list.error!.message).toBe(`Undefined property '${name}'.`);
    }
  });

  it('reports runtime errors with the book wording and the call stack', () => {
    const { error } = run(`
      fun a() { b(); }
      fun b() { c(); }
      fun c() { return 1 + "x"; }
      a();
    `);
    expect(error!.format()).toBe(
      'Operands must be two numbers or two strings.\n[line 4] in c()\n[line 3] in b()\n[line 2] in a()\n[line 5] in script',
    );
    expect(run('print undefinedThing;').error!.message).toBe("Undefined variable 'undefinedThing'.");
    expect(run('fun f(a, b) {} f(1, 2, 3);').error!.message).toBe('Expected 2 arguments but got 3.');
    expect(run('var x = "s"; x();').error!.message).toBe('Can only call functions and classes.');
    expect(run('var NotAClass = 1; class B < NotAClass {}').error!.message).toBe('Superclass must be a class.');
  });
});

describe('instance fields (shapes and inline caches)', () => {
  it('reads the right field at one site for instances of different classes and field orders', () => {
    const { out } = run(`
      class A { init() { this.x = 1; this.y = 2; } }
      class B { init() { this.y = 20; this.x = 10; } }
      class C {}
      var c = C(); c.z = 0; c.x = 100;
      fun getX(o) { return o.x; }
      fun setX(o, v) { o.x = v; }
      var all = [A(), B(), c, A(), B(), c];
      var s = "";
      for (o in all) { s = s + str(getX(o)) + " "; setX(o, getX(o) + 1); }
      print s;
      for (o in all) print o.x;
    `);
    expect(out).toEqual(['1 10 100 1 10 101 ', '2', '11', '102', '2', '11', '102']);
  });

  it('a field added later shadows a method the call site had cached', () => {
    const { out } = run(`
      class A { m() { return "method"; } }
      var a = A();
      fun callM(o) { return o.m(); }
      print callM(a);
      fun f() { return "field"; }
      a.m = f;
      print callM(a);
      print callM(A());
    `);
    expect(out).toEqual(['method', 'field', 'method']);
  });

  it('switches an instance with very many fields to dictionary mode transparently', () => {
    const names = Array.from({ length: 80 }, (_, i) => `f${i}`);
    const source = [
      'class Bag {}',
      'var b = Bag();',
      ...names.map((n, i) => `b.${n} = ${i};`),
      'var total = 0;',
      ...names.map((n) => `total = total + b.${n};`),
      'b.f3 = 1000;',
      'print total; print b.f3; print b.f79;',
    ].join('\n');
    expect(run(source).out).toEqual([String((79 * 80) / 2), '1000', '79']);
  });

  it('keeps working when a class has more field orders than the shape cap', () => {
    // 7 fields set in rotating orders from one site, many instances.
    const { out } = run(`
      class P {}
      var names = 0;
      var sum = 0;
      for (var i = 0; i < 2000; i = i + 1) {
        var p = P();
        if (i % 2 == 0) { p.a = 1; p.b = 2; } else { p.b = 2; p.a = 1; }
        if (i % 3 == 0) p.c = 3;
        if (i % 5 == 0) p.d = 4;
        sum = sum + p.a + p.b;
      }
      print sum;
    `);
    expect(out).toEqual(['6000']);
  });
});

describe('lists', () => {
  it('index, assign, append, remove, len, compound assignment', () => {
    const { out } = run(`
      var l = [1, "two", nil];
      l[2] = 3; l[0] += 10; l.append([4]);
      print l; print len(l); print l.remove(1); print l;
      var r = l.remove; print r(0); print l;
    `);
    expect(out).toEqual(['[11, two, 3, [4]]', '4', 'two', '[11, 3, [4]]', '11', '[3, [4]]']);
  });

  it('rejects bad indexes and non-list iteration', () => {
    expect(run('var l = [1]; print l[1];').error!.message).toBe('List index out of range.');
    expect(run('var l = [1]; print l[-1];').error!.message).toBe('List index out of range.');
    expect(run('var l = [1]; print l[0.5];').error!.message).toBe('List index must be a whole number.');
    expect(run('for (x in "abc") print x;').error!.message).toBe('Can only iterate over a list or a map.');
  });
});

describe('budgets end to end', () => {
  it('an infinite loop ends with a fuel error at its line', () => {
    const { error, vm } = run('var i = 0;\nwhile (true) {\n  i = i + 1;\n}', { fuel: 100_000 });
    expect(error!.limit).toBe('fuel');
    expect(error!.message).toBe('Out of fuel: the script ran more than 100000 instructions.');
    expect([2, 3, 4]).toContain(error!.line);
    expect(vm.liveFiberCount).toBe(0);
  });

  it('fuel counts roughly the instructions executed', () => {
    // 1000 iterations of a ~20-word loop body: fits in 100k fuel, not in 5k.
    const loop = 'var s = 0; for (var i = 0; i < 1000; i = i + 1) { s = s + i; } print s;';
    expect(run(loop, { fuel: 100_000 }).out).toEqual(['499500']);
    expect(run(loop, { fuel: 5_000 }).error!.limit).toBe('fuel');
  });

  it('unbounded recursion is "Stack overflow."', () => {
    const { error } = run('fun f(n) { return f(n + 1); }\nf(0);');
    expect(error!.message).toBe('Stack overflow.');
    expect(error!.limit).toBe('call depth');
    expect(error!.trace[0]).toEqual({ functionName: 'f', line: 1 });
  });

  it('deep but bounded recursion works within maxFrames', () => {
    const { out } = run('fun d(n) { if (n == 0) return 0; return 1 + d(n - 1); } print d(250);');
    expect(out).toEqual(['250']);
  });

  it('string and list growth is limited by the heap budget', () => {
    expect(run('var s = "ab"; while (true) s = s + s;', { maxHeap: 1e6 }).error!.limit).toBe('heap');
    expect(run('var l = []; while (true) l.append(l);', { maxHeap: 1e4, fuel: Infinity }).error!.limit).toBe('heap');
    // A list that nests itself many times cannot print exponentially long text.
    const nested = run('var a = [1,2,3,4,5,6,7,8,9,10]; for (var i = 0; i < 30; i += 1) a = [a, a]; print a;', { fuel: 1e6 });
    expect(nested.error!.limit).toBe('fuel');
    const viaStr = run('var a = [1,2,3]; for (var i = 0; i < 40; i += 1) a = [a, a]; var s = str(a);', { fuel: 1e6 });
    expect(viaStr.error!.limit).toBe('fuel');
  });
});

describe('fibers end to end', () => {
  it('a spell suspends in wait() and resumes with locals intact', () => {
    const { vm, out } = load(`
      spell channel(name, times) {
        for (var i = 0; i < times; i += 1) {
          print name + str(i);
          wait(0.5);
        }
        return name + " done";
      }
    `);
    const a = vm.cast('channel', ['a', 2]);
    const b = vm.cast('channel', ['b', 1]);
    expect(out).toEqual(['a0', 'b0']);
    expect([a.state, b.state]).toEqual(['suspended', 'suspended']);
    vm.resume(a);
    vm.resume(b);
    expect(b.state).toBe('done');
    expect(b.result).toBe('b done');
    vm.resume(a);
    expect(a.state).toBe('done');
    expect(out).toEqual(['a0', 'b0', 'a1']);
    expect(vm.liveFiberCount).toBe(0);
  });

  it('closures created before a wait still see their variables after it', () => {
    const { vm, out } = load(`
      var later;
      spell remember(x) {
        var seen = x;
        fun show() { print seen; }
        later = show;
        wait(1);
        seen = seen + "!";
        show();
      }
    `);
    const fiber = vm.cast('remember', ['rune']);
    vm.call('later', []);
    vm.resume(fiber);
    vm.call('later', []);
    expect(out).toEqual(['rune', 'rune!', 'rune!']);
  });

  it('errors in one fiber leave the others and the VM usable', () => {
    const { vm } = load(`
      spell bad() { wait(1); return nil + 1; }
      spell good(x) { wait(1); return x * 2; }
    `);
    const bad = vm.cast('bad', []);
    const good = vm.cast('good', [21]);
    vm.resume(bad);
    expect(bad.state).toBe('failed');
    expect(bad.error!.spell).toBe('bad');
    expect(bad.error!.format()).toBe('Operands must be two numbers or two strings.\n[line 2] in bad()');
    vm.resume(good);
    expect(good.result).toBe(42);
  });

  it('wait longer than maxWait is a budget error', () => {
    const { vm } = load('spell nap() { wait(100); }', { maxWait: 10 });
    expect(vm.cast('nap', []).error!.limit).toBe('wait');
  });
});

describe('host functions end to end', () => {
  it('HostError messages pass through; other exceptions are wrapped; never escape', () => {
    expect(run('explode(10);').error!.format()).toBe('The fireball fizzles.\n[line 1] in script');
    expect(run('fun f() {\n  explode(1);\n}\nf();').error!.format()).toBe(
      "Host function 'explode' failed: kaboom\n[line 2] in f()\n[line 4] in script",
    );
  });

  it('checks argument types at run time', () => {
    expect(run('var nine = "nine"; print sqrt(nine);').error!.message).toBe('Argument 1 of sqrt() must be a number.');
    expect(run('print floor(2.7) + abs(-1) + min(1, 2) + max(1, 2) + sqrt(16);').out).toEqual(['10']);
  });

  it('host functions are first-class values', () => {
    expect(run('var f = len; print f([1, 2]); print f;').out).toEqual(['2', '<native fn>']);
  });
});
