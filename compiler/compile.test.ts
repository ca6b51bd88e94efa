import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, formatDiagnosticClox, MAX_NESTING } from './index.js';
import { messages, run, TEST_HOSTS } from './testing.test-helper.js';

describe('compile(): end to end on the VM', () => {
  it('runs closures, classes, inheritance and initializers as clox does', () => {
    const { output, error } = run(`
      fun makeCounter() { var i = 0; fun count() { i = i + 1; return i; } return count; }
      var c = makeCounter(); c(); print c();
      class Animal { init(name) { this.name = name; } speak() { return this.name + " makes a sound"; } }
      class Dog < Animal { speak() { return super.speak() + " (woof)"; } }
      print Dog("Rex").speak();
      var bound = Dog("Fido").speak; print bound();
      print Animal("x").init("y").name;
    `);
    expect(error).toBeNull();
    expect(output).toEqual(['2', 'Rex makes a sound (woof)', 'Fido makes a sound (woof)', 'y']);
  });

  it('gives each for-in iteration its own variable, and shares the C-style loop variable (as clox)', () => {
    const { output } = run(`
      fun closeOver(v) { fun get() { return v; } return get; }
      var fs = [];
      for (x in [1, 2, 3]) { fun get() { return x; } fs.append(get); }
      for (f in fs) print f();
      var gs = [];
      for (var i = 0; i < 2; i = i + 1) { fun g() { return i; } gs.append(g); }
      for (g in gs) print g();
    `);
    expect(output).toEqual(['1', '2', '3', '2', '2']);
  });

  it('runs the extensions: lists, indexing, compound assignment, %, host calls and spells', () => {
    const { output } = run(`
      var l = [1, 2, 3]; l[0] += 10; l[1] = l[1] * 5;
      class P { init() { this.hp = 10; } } var p = P(); p.hp -= 3; p.hp *= 2;
      var s = "a"; s += "b";
      print l; print p.hp; print s; print 7 % 3; print len(l) + abs(-2);
      spell greet(name) { return "hi " + name; }
      print greet("mage");
    `);
    expect(output).toEqual(['[11, 10, 3]', '14', 'ab', '1', '5', 'hi mage']);
  });

  it('reports runtime errors with the book wording (compile only warned)', () => {
    const result = compile('print missing;');
    expect(result.module).not.toBeNull();
    expect(run('print missing;').error).toBe("Undefined variable 'missing'.");
  });
});

describe('compile(): results and diagnostics', () => {
  it('returns a null module iff there is an error', () => {
    expect(compile('print 1;').module).not.toBeNull();
    expect(compile('print 1').module).toBeNull();
    const warned = compile('print x;');
    expect(warned.module).not.toBeNull();
    expect(warned.diagnostics.map((d) => d.severity)).toEqual(['warning']);
  });

  it('keeps Lox programs that use `spell` and `in` as names working', () => {
    const { output } = run('var spell = "s"; var in = "i"; fun f(spell) { return spell + in; } print f(spell); class in2 { spell() { return 1; } } print in2().spell();');
    expect(output).toEqual(['si', '1']);
  });

  it('reports static errors from the parser and the resolver together, in source order', () => {
    expect(messages('return 1;\nvar a = ;\nprint this;')).toEqual([
      "[line 1] Error at 'return': Can't return from top-level code.",
      '[line 2] Error at \';\': Expect expression.',
      "[line 3] Error at 'this': Can't use 'this' outside of a class.",
    ]);
  });

  it('reports a missing comma in a host call as the syntax error, not as a wrong argument count', () => {
    const hosts = { hosts: TEST_HOSTS };
    expect(compile('print min(1 2);', hosts).diagnostics.map(formatDiagnosticClox)).toEqual(["[line 1] Error at '2': Expect ')' after arguments."]);
    expect(compile('particles("x" 1, 2);', hosts).diagnostics.map(formatDiagnosticClox)).toEqual(["[line 1] Error at '1': Expect ')' after arguments."]);
    // A well-formed call with the wrong count still gets the arity message.
    expect(compile('print min(1);', hosts).diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^min\(\) expects 2 arguments/)]);
  });

  it('uses the sourceName and the given hosts', () => {
    const result = compile('particles("x", 1, 2);', { sourceName: 'a.spell', hosts: TEST_HOSTS });
    expect(result.module?.sourceName).toBe('a.spell');
    expect(compile('particles("x", 1, 2);').diagnostics.map(formatDiagnosticClox)).toEqual([
      "[line 1] Warning at 'particles': Undefined variable 'particles'.",
    ]);
  });
});

describe('compile(): never throws', () => {
  it('refuses nesting past the limit with a diagnostic at the first token too deep', () => {
    const deep = 'print ' + '('.repeat(10_000) + '1' + ')'.repeat(10_000) + ';';
    const result = compile(deep);
    expect(result.module).toBeNull();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ message: `Too much nesting (the limit is ${MAX_NESTING}).`, line: 1, column: 7 + MAX_NESTING, token: '(' }),
    ]);
    expect(compile('print ' + '!'.repeat(100_000) + 'true;').module).toBeNull();
    expect(compile('print ' + '['.repeat(MAX_NESTING) + ']'.repeat(MAX_NESTING) + ';').module).not.toBeNull();
  });

  it('compiles very long flat chains without running out of stack', () => {
    const sum = 'print ' + Array.from({ length: 100_000 }, () => '1').join(' + ') + ';';
    expect(run(sum).output).toEqual(['100000']);
    const chain = 'var x = 0;\nif (x == 1) print 1;' + Array.from({ length: 5_000 }, (_, i) => ` else if (x == ${i + 2}) print ${i};`).join('') + ' else print "none";';
    expect(run(chain).output).toEqual(['none']);
  });

  it('turns what still recurses too deeply into a diagnostic', () => {
    const result = compile('var a; a = ' + Array.from({ length: 100_000 }, () => 'a').join(' = ') + ';');
    expect(result.module).toBeNull();
    expect(result.diagnostics.map((d) => d.message)).toEqual(['Program too deeply nested.']);
  });

  it('handles binary garbage, NUL bytes and a 10 MB file, capping the number of errors', () => {
    const garbage = Array.from({ length: 5000 }, (_, i) => String.fromCharCode((i * 7919) % 65536)).join('');
    const result = compile(garbage);
    expect(result.module).toBeNull();
    expect(result.diagnostics.length).toBeLessThanOrEqual(101);
    expect(compile('\u0000'.repeat(1000)).module).toBeNull();
    const big = 'var x = 1;\n'.repeat(50_000) + '// ' + 'x'.repeat(10_000_000) + '\nprint "' + 'y'.repeat(1000) + '";';
    expect(big.length).toBeGreaterThanOrEqual(10_000_000);
    expect(compile(big).module).not.toBeNull();
  });

  it('never throws on random input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (source) => {
        const result = compile(source);
        expect(result.module === null).toBe(result.diagnostics.some((d) => d.severity === 'error'));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on mutated valid programs (property)', () => {
    const base = `class A < B { init(x) { this.x = x; } get() { return super.get() + this.x; } }
spell zap(t) { for (e in [1, 2]) { t.hp -= e % 2; } var l = [t]; l[0] += 1; return l; }
fun f(a, b) { if (a and !b or nil) { while (a < b) a = a + 1; } else print "s"; return clock(); }`;
    const pieces = ['(', ')', '{', '}', '[', ']', ';', ',', '.', '=', '+=', 'in', 'spell', 'var', 'fun', 'class', 'return', 'this', 'super', '"', '@', '\n', 'for', 'else'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(base.length), fc.nat(base.length), fc.constantFrom(...pieces)), { maxLength: 6 }),
        (edits) => {
          let source = base;
          for (const [at, cut, piece] of edits) source = source.slice(0, at) + piece + source.slice(at + (cut % 4));
          const result = compile(source);
          for (const d of result.diagnostics) {
            expect(d.line).toBeGreaterThanOrEqual(1);
            expect(d.column).toBeGreaterThanOrEqual(1);
            expect(formatDiagnosticClox(d)).toMatch(/^\[line \d+\] (Error|Warning)/);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('compile(): nesting without brackets', () => {
  it('refuses brace-less statement bodies nested past the limit, and accepts them below it', () => {
    const deep = (n: number) => 'var x = 1;\n' + 'if (x) '.repeat(n) + 'print x;';
    expect(compile(deep(5000)).diagnostics.map((d) => d.message)).toEqual([`Too much nesting (the limit is ${MAX_NESTING}).`]);
    expect(run(deep(MAX_NESTING / 2)).output).toEqual(['1']);
    const loops = 'for (var i = 0; i < 1; i = i + 1) '.repeat(50) + 'print "in";';
    expect(run(loops).output).toEqual(['in']);
  });
});

describe('compile(): files full of errors', () => {
  it('stops after enough syntax errors instead of recovering from every one', () => {
    const words = ['x', '+', ';', 'var', 'if', ',', '.', '=', 'fun', 'f', '"s"', '1', 'class', 'else', 'and', 'return', 'print', 'in', 'for', 'spell', 'this', 'super', '(', ')'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const soup = Array.from({ length: 200_000 }, () => words[Math.floor(next() * words.length)]!).join(' ');
    const result = compile(soup);
    expect(result.module).toBeNull();
    expect(result.diagnostics).toHaveLength(101);
    expect(result.diagnostics.at(-1)!.message).toBe('Too many errors (only the first 100 are shown).');
  });
});
