import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { Op } from './opcodes.js';
import { SUPERINSTRUCTIONS, fuseSuperinstructions } from './superinstructions.js';
import { assembleFunction } from './test-support/assemble.js';
import { VM } from './vm.js';

describe('fuseSuperinstructions', () => {
  it('rewrites only the first word of each hot sequence', () => {
    const { code } = assembleFunction({
      code: `
        GET_LOCAL 1
        CONSTANT 0
        ADD
        SET_LOCAL 1
        POP
        LOOP top
      top:
        GET_LOCAL 1
        GET_LOCAL 2
        LESS
        JUMP_IF_FALSE end
        POP
        LOOP top
      end:
        POP
        NIL
        RETURN`,
    });
    const fused = fuseSuperinstructions(code);
    expect(fused[0]).toBe(SUPERINSTRUCTIONS.S_INC_LOCAL_LOOP);
    expect(fused[10]).toBe(SUPERINSTRUCTIONS.S_LL_LESS_JUMP);
    // Starts inside a sequence get their own heads (control may arrive there directly).
    expect(fused[2]).toBe(SUPERINSTRUCTIONS.S_K_ADD);
    expect(fused[4]).toBe(SUPERINSTRUCTIONS.S_ADD_SET_LOCAL_POP);
    expect(fused[14]).toBe(SUPERINSTRUCTIONS.S_LESS_JUMP);
    // Operand words never change.
    const changed = [...fused.keys()].filter((i) => fused[i] !== code[i]);
    expect(changed).toEqual([0, 2, 4, 5, 7, 10, 14, 15, 17]);
    expect(fused[1]).toBe(1);
    expect(fused[16]).toBe(code[16]);
  });

  it("threads a for loop's back edge into its increment", () => {
    const { module } = compile('fun f() { var x = 0; for (var i = 0; i < 3; i = i + 1) { x = i; } return x; }');
    const vm = new VM(module!);
    const code = [...vm.runtimeFunctions[1]!.code];
    expect(code).toContain(SUPERINSTRUCTIONS.S_LOOP_INC_LOOP);
    expect(code).toContain(SUPERINSTRUCTIONS.S_INC_LOCAL_LOOP);
    expect(code).toContain(SUPERINSTRUCTIONS.S_LK_LESS_JUMP_JUMP);
  });
});

/** Programs whose superinstructions hit their slow paths and errors. */
const PROGRAMS = [
  'var s = 0; for (var i = 0; i < 10; i = i + 1) { s = s + i; } print s;',
  'fun f(a) { var b = a + 1; return b - 2; } print f(3); print f("x");',
  'fun f(a) { return a - 1; } print f(nil);',
  'fun f(a, b) { return a + b; } print f("a", "b"); print f(1, "b");',
  'fun f(a, b) { if (a < b) return "lt"; return "ge"; } print f(1, 2); print f(2, 1); print f("a", 1);',
  'class P { init() { this.x = 1; } m() { return 7; } } fun g(p) { var q = p.x; var m = p.m; return q + m(); } print g(P());',
  'fun g(p) { return p.x; } print g([1]);',
  'fun h(p) { p.x = 5; } h(3);',
  'var t = 0; var i = 0; while (i < 5) { if (i == 3) t = t + 100; if (i > 2) t = t + 1; i = i + 1; } print t;',
  'fun f(a, b) { if (a > b) return 1; return 2; } print f(2, 1); print f(1, 2); print f("a", 1);',
  'fun f(a, b) { if (a == b) return 1; return 2; } print f("ab", "a" + "b"); print f(nil, false); print f([], []);',
  'fun loop() { var n = 0; while (true) { n = n + 1; } } loop();',
  // Local/local and local/constant compare-and-branch, with and without a JUMP after them.
  'fun f(a, b) { var r = 0; if (a < b) r = r + 1; if (a > b) r = r + 2; if (a < 3) r = r + 4; if (a > 3) r = r + 8; return r; } print f(1, 2); print f(5, 2); print f(3, 3);',
  'fun f(a, b) { if (a < b) return 1; return 2; } print f("a", "b");',
  'fun f(a) { if (a > 3) return 1; return 2; } print f(nil);',
  'fun f(a, b) { var r = 0; if (a == b) r = r + 1; if (a != b) r = r + 2; if (a == "x") r = r + 4; if (a != 3) r = r + 8; return r; } print f("x", "x"); print f(3, 4); print f(nil, false); print f(3, 3);',
  'fun f(a, b) { return a == b; } var s = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"; fun g(a, b) { if (a == b) return 1; if (a != b) return 2; return 3; } print g(s + "1", s + "1"); print g(s + "1", s + "2");',
  // Increments and for loops (the back edge threaded into the increment), their slow paths and fuel.
  'fun f(n) { var s = 0; for (var i = 0; i < n; i = i + 1) { s = s + i * 3 % 7 - i; } return s; } print f(100);',
  'fun f() { var s = ""; for (var i = "a"; i != "aaaa"; i = i + "a") { s = s + i; } return s; } print f();',
  'fun f() { var x = 0; for (var i = 0; i > -1; i = i + 1) { x = i; } } f();',
  'fun f() { for (var i = 0; i > -1; i = i + 1) {} } f();',
  'fun f() { var i = 0; while (i < 10) { i = i + 1; if (i == 5) continue; } return i; } print f();',
  'fun f(a) { var b = a; b = b + 1; return b; } print f(1); print f("s");',
  // Arithmetic with a constant or a local on the stack top, and their errors.
  'fun f(a, b) { return (a * 2 + b) % 5 - 1 + (a - b) * b - a; } print f(3, 4); print f(1.5, 2);',
  'fun f(a, b) { return (a + b) * 2; } print f("a", "b");',
  'fun f(a, b) { return (a + 1) % b; } print f(3, nil);',
  'fun f(a, b) { return (a + 1) - b; } print f(3, "x");',
  'fun f(a, b) { return (a + 1) * b; } print f(3, true);',
  'fun f(a, b) { return (a + b) + "x"; } print f("a", "b"); print f(1, 2);',
  // An if's branch incrementing a local and jumping past the else, and its slow path and errors.
  'fun f(a, b) { var c = 0; if (a == b) c = c + 1; else c = c - 1; if (a != b) c = c + 10; return c; } print f(1, 1); print f(1, 2);',
  'fun f(a) { var c = a; if (true) c = c + "x"; return c; } print f("s"); print f(1);',
  'fun f(a) { var c = a; if (true) c = c + 1; return c; } print f(nil);',
  // A local, then another local's field: misses, non-instances, a shape change.
  'class P { init(x, y) { this.x = x; this.y = y; } } fun f(p, q) { p.x = q.y + 1; q.x = p.x + p.y; return p.x + q.x; } print f(P(1, 2), P(3, 4)); var o = P(1, 2); o.z = 9; print f(P(5, 6), o);',
  'class P {} fun f(p, q) { var s = p + q.y; return s; } var q = P(); q.y = 2; print f(1, q); print f(1, 7);',
  'class P {} fun f(p, q) { return p + q.y; } print f(1, P());',
  // Modulo of a local by a constant, and a modulo or sum stored straight into a local.
  'fun f(a, b) { var s = a % 7; s = (s + b) % 5; s = s + b; return s; } print f(23, 4); print f(2.5, 1);',
  'fun f(a) { return a % 7; } print f("x");',
  'fun f(a, b) { var s = 0; s = a % 7 + b; return s; } print f(1, "b");',
  'fun f(a, b) { var s = 0; s = a + b; return s; } print f("a", "b"); print f(1, 2); print f(nil, 2);',
  'fun f(a) { var s = 0; s = a % 3; return s; } print f(10); print f(true);',
  'fun f() { var s = 0; for (var i = 0; i < 100000; i = i + 1) { s = (s + i) % 7; } return s; } print f();',
  // A sum stored into a field, and a local's field added to the stack top: misses, strings, errors.
  'class P { init(x, y) { this.x = x; this.y = y; } } fun f(p, q) { for (var i = 0; i < 3; i = i + 1) { p.x = q.y + i; q.y = p.x + q.x; } return p.x + q.y; } print f(P(1, 2), P(3, 4)); print f(P("a", "b"), P("c", "d"));',
  'class P {} fun f(p, a) { p.x = a + 1; return p.x; } print f(P(), 2); var o = P(); o.y = 1; print f(o, 3); print f(3, 4);',
  'class P {} fun f(p, a) { p.x = a + 1; return p.x; } print f(P(), "a");',
  'class P {} fun f(p, a) { return a + p.x; } var o = P(); o.x = 2; print f(o, 1); o.x = "s"; print f(o, "t"); print f(o, 1);',
  'class P {} fun f(p, a) { return a + p.x; } print f(P(), 1);',
  'fun f(p, a) { return a + p.x; } print f(nil, 1);',
  // A captured variable incremented by a local and returned, open and closed, and the slow paths.
  'fun mk(n) { fun add(k) { n = n + k; return n; } return add; } var c = mk(1); print c(2); print c(3); var s = mk("a"); print s("b"); print c("x");',
  'fun f(n) { fun add(k) { n = n + k; return n; } print add(1); print add(2); return add; } var g = f(10); print g(5); print g(nil);',
  // Getters and in-place field increments: misses, new fields, other receivers, strings, errors.
  'class C { init() { this.n = 0; } get() { return this.n; } bump() { this.n = this.n + 1; return this; } } var c = C(); for (var i = 0; i < 5; i = i + 1) c.bump(); print c.get(); var d = C(); d.m = 1; d.bump(); print d.get(); d.n = "s"; print d.get(); d.bump();',
  'class C { bump() { this.n = this.n + 1; } } C().bump();',
  'class C { get() { return this.n; } } print C().get();',
  'fun f(a, b) { a.x = b.x + 1; return a.x; } class P {} var p = P(); p.x = 1; var q = P(); q.x = 5; print f(p, p); print f(p, q); print f(q, q);',
  'fun f(a) { a.x = a.x + 1; return a.x; } class P {} var p = P(); print f(p);',
  'fun f(a) { return a.x; } print f(3);',
  'class C { init() { this.n = 0; } bump() { this.n = this.n + 1; } } var c = C(); for (var i = 0; i < 100000; i = i + 1) c.bump();',
  // Methods invoked right after a local is pushed: the receiver or the last argument; misses, lists, fields, errors.
  'class A { m() { return 1; } n(x) { return x + 1; } } class B < A { m() { return 2; } } fun f(o, x) { return o.m() + o.n(x); } print f(A(), 1); print f(B(), 2); print f(A(), 3);',
  'fun f(l, x) { l.append(x); return len(l); } print f([], 1); print f([1, 2], 3);',
  'class A { m() { return 1; } } fun f(o) { return o.m(); } var a = A(); print f(a); fun g() { return 7; } a.m = g; print f(a);',
  'class A { m(x) { return x; } } fun f(o, x) { return o.m(x, x); } print f(A(), 1);',
  'class A { m() { return 1; } } fun f(o) { return o.k(); } print f(A());',
  'fun f(o) { return o.m(); } print f(3);',
  'class A { m() { return this.m(); } } fun f(o) { return o.m(); } print f(A());',
  // A global callee and `n - k` as its argument: recursion, slow paths, undefined globals, errors, fuel.
  'fun fib(n) { if (n < 2) return n; return fib(n - 2) + fib(n - 1); } print fib(12);',
  'fun fib(n) { if (n < 2) return n; return fib(n - 2) + fib(n - 1); } print fib(40);',
  'fun f(n) { return g(n - 1); } print f(3);',
  'fun f(n) { return str(n - 1); } fun h(n) { return f(n - 1); } print h(3); print h("x");',
  'var k = 5; fun f(n) { return k(n - 1); } print f(1);',
  'fun f(n) { return f(n - 1); } f(1);',
  // Fields set from a local or a constant: constructors, shape transitions, misses, non-instances.
  'class P { init(x) { this.x = x; this.n = 0; this.s = "s"; } } var a = P(1); var b = P("b"); print a.x + a.n; print b.x + b.s; var c = P(2); c.z = 1; fun f(o, v) { o.x = v; o.y = 3; return o.x + o.y; } print f(c, 4); print f(a, 5); print f(P(1), 6);',
  'fun f(o, v) { o.x = v; } f(3, 4);',
  'fun f(o) { o.x = 1; } f(nil);',
  'class P { init(d) { this.d = d; if (d > 0) { this.l = P(d - 1); } else { this.l = nil; } } } var t = P(3); print t.l.l.l.d; print t.l.l.l.l;',
  // Comparisons with nil and a branch on them.
  'fun f(x) { var r = 0; if (x == nil) r = r + 1; if (x != nil) r = r + 2; if (nil == x) r = r + 4; return r; } print f(nil); print f(false); print f(0); print f("s"); print f([]);',
  'fun f(x) { var n = 0; while (x != nil) { n = n + 1; x = x[1]; } return n; } print f([1, [2, [3, nil]]]);',
  // For loops whose body ends by popping a block's local: the back edge runs the increment too; slow paths and fuel.
  'fun f(n) { var s = 0; for (var i = 0; i < n; i = i + 1) { var k = i * 2; s = s + k; } return s; } print f(10);',
  'fun f() { var s = ""; for (var i = "a"; i != "aaaa"; i = i + "a") { var k = i; s = s + k; } return s; } print f();',
  'fun f() { for (var i = 0; i > -1; i = i + 1) { var k = i; } } f();',
  // A method invoked on a local's field: trees, misses, non-instance fields, lists, errors.
  'class T { init(d) { this.d = d; if (d > 0) { this.l = T(d - 1); this.r = T(d - 1); } else { this.l = nil; } } n() { if (this.l == nil) return 1; return 1 + this.l.n() + this.r.n(); } } print T(4).n();',
  'class H { init() { this.xs = []; } add(x) { this.xs.append(x); return len(this.xs); } } var h = H(); print h.add(1); print h.add(2);',
  'class A { m() { return 1; } } class H { init(o) { this.o = o; } go() { return this.o.m(); } } print H(A()).go(); print H(3).go();',
  'class A { m() { return 1; } } class H { init(o) { this.o = o; } go() { return this.o.k(); } } print H(A()).go();',
  'class H { go() { return this.o.m(); } } print H().go();',
  // Sums of three: numbers, strings, mixed (the error comes from the right ADD).
  'fun f(a, b, c) { return a * 1 + b + c; } print f(1, 2, 3); print f(1.5, 2, 0.25);',
  'fun f(a, b, c) { return a + b + c; } print f("a", "b", "c");',
  'fun f(a, b, c) { return a * 1 + b + c; } print f(1, 2, "c");',
  'fun f(a, b, c) { return a * 1 + b + c; } print f(1, "b", "c");',
];

function runAll(source: string, plain: boolean): string[] {
  const { module } = compile(source);
  const out: string[] = [];
  const vm = new VM(module!, { print: (t) => out.push(t), fuel: 10_000 });
  if (plain) for (const fn of vm.runtimeFunctions) fn.code = fn.original;
  const fiber = vm.runScript();
  if (fiber.error) out.push(fiber.error.format(), String(fiber.error.limit));
  return out;
}

describe('superinstructions', () => {
  it.each(PROGRAMS)('behave exactly as the plain code: %s', (source) => {
    expect(runAll(source, false)).toEqual(runAll(source, true));
  });
});
