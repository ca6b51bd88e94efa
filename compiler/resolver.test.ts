import { describe, expect, it } from 'vitest';
import { compileOk, messages, TEST_HOSTS } from './testing.test-helper.js';

const errors = (source: string) => messages(source, { hosts: TEST_HOSTS });

describe('resolver: the book static errors', () => {
  it.each([
    ['{ var a = a; }', "[line 1] Error at 'a': Can't read local variable in its own initializer."],
    ['{ var a = 1; var a = 2; }', "[line 1] Error at 'a': Already a variable with this name in this scope."],
    ['fun f(a, a) {}', "[line 1] Error at 'a': Already a variable with this name in this scope."],
    ['return 1;', "[line 1] Error at 'return': Can't return from top-level code."],
    ['class A { init() { return 1; } }', "[line 1] Error at 'return': Can't return a value from an initializer."],
    ['print this;', "[line 1] Error at 'this': Can't use 'this' outside of a class."],
    ['fun f() { return this; }', "[line 1] Error at 'this': Can't use 'this' outside of a class."],
    ['print super.x;', "[line 1] Error at 'super': Can't use 'super' outside of a class."],
    ['class A { m() { super.m(); } }', "[line 1] Error at 'super': Can't use 'super' in a class with no superclass."],
    ['class A < A {}', "[line 1] Error at 'A': A class can't inherit from itself."],
    ['{ spell s() {} }', "[line 1] Error at 's': Spells must be declared at the top level."],
    ['fun f() { spell s() {} }', "[line 1] Error at 's': Spells must be declared at the top level."],
    ['spell s() {} spell s() {}', "[line 1] Error at 's': Already a spell with this name."],
  ])('%s', (source, expected) => {
    expect(errors(source)).toEqual([expected]);
  });

  it('allows shadowing in an inner scope, redeclaring globals and an empty return in an initializer', () => {
    expect(errors('var a = 1; var a = 2; { var a = a; } class A { init() { return; } }').filter((m) => m.includes('Error'))).toEqual([
      "[line 1] Error at 'a': Can't read local variable in its own initializer.",
    ]);
    expect(errors('var a = 1; var a = 2; { var b = a; { var a = b; } }')).toEqual([]);
  });

  it('limits locals to 256 slots per function and closure variables to 256', () => {
    const locals = Array.from({ length: 256 }, (_, i) => `var v${i};`).join(' ');
    expect(errors(`fun f() { ${locals} }`)).toEqual(["[line 1] Error at 'v255': Too many local variables in function."]);
    expect(errors(`fun f() { ${locals.replace(' var v255;', '')} }`)).toEqual([]);

    const outer = Array.from({ length: 257 }, (_, i) => `var u${i};`);
    const uses = Array.from({ length: 257 }, (_, i) => `u${i};`).join(' ');
    // Spread across two enclosing functions so neither runs out of locals first.
    const source = `fun a() { ${outer.slice(0, 200).join(' ')} fun b() { ${outer.slice(200).join(' ')} fun c() { ${uses} } } }`;
    expect(errors(source)).toEqual(["[line 1] Error at 'u256': Too many closure variables in function."]);
  });
});

describe('resolver: names', () => {
  it('resolves globals declared anywhere at the top level, before or after use', () => {
    const module = compileOk('fun f() { return later; } var later = 1; print f();', { hosts: TEST_HOSTS });
    expect(module.globals).toEqual(['f', 'later']);
  });

  it('warns (does not fail) on undeclared names, once per name, and still builds the module', () => {
    const result = messages('print nope; nope = 2; print nope;', { hosts: TEST_HOSTS });
    expect(result).toEqual(["[line 1] Warning at 'nope': Undefined variable 'nope'."]);
  });

  it('prefers locals and declared globals over host functions of the same name', () => {
    const module = compileOk('fun len(x) { return 0; } print len(1, 2); { var str = 1; print str; }', { hosts: TEST_HOSTS });
    expect(module.hostImports).toEqual([]);
  });
});

describe('resolver: host calls', () => {
  it('checks arity at compile time, optional parameters included', () => {
    expect(errors('print len(1, 2);')).toEqual(["[line 1] Error at 'len': len() expects 1 argument (x) but got 2."]);
    expect(errors('clock(1);')).toEqual(["[line 1] Error at 'clock': clock() expects 0 arguments but got 1."]);
    expect(errors('particles("x", 1);')).toEqual(["[line 1] Error at 'particles': particles() expects 3 to 4 arguments (kind, x, y, count?) but got 2."]);
    expect(errors('particles("x", 1, 2); particles("x", 1, 2, 3);')).toEqual([]);
  });

  it('records each host import once with the arities its call sites use', () => {
    const module = compileOk('particles("a", 1, 2); particles("b", 1, 2, 3); print len([]); var f = len;', { hosts: TEST_HOSTS });
    expect(module.hostImports).toEqual([
      { name: 'particles', arities: [3, 4] },
      { name: 'len', arities: [1] },
    ]);
  });

  it('treats a host name that is not a declared host as an undefined variable', () => {
    expect(messages('print len([]);', { hosts: [] })).toEqual(["[line 1] Warning at 'len': Undefined variable 'len'."]);
  });
});
