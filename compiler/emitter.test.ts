import { describe, expect, it } from 'vitest';
import { compileOk, listing, opNames, TEST_HOSTS } from './testing.test-helper.js';

const script = (source: string) => compileOk(source, { hosts: TEST_HOSTS }).functions[0]!;

describe('emitter: code shapes', () => {
  it('emits expressions as clox does', () => {
    expect(listing(script('print 1 + 2 * 3;'))).toEqual(['CONSTANT 0', 'CONSTANT 1', 'CONSTANT 2', 'MULTIPLY', 'ADD', 'PRINT', 'NIL', 'RETURN']);
    expect(opNames(script('print 1 <= 2; print 1 >= 2; print 1 != 2;'))).toEqual([
      'CONSTANT', 'CONSTANT', 'GREATER', 'NOT', 'PRINT',
      'CONSTANT', 'CONSTANT', 'LESS', 'NOT', 'PRINT',
      'CONSTANT', 'CONSTANT', 'EQUAL', 'NOT', 'PRINT',
      'NIL', 'RETURN',
    ]);
    expect(opNames(script('print -1 % 2; print !nil;'))).toEqual(['CONSTANT', 'NEGATE', 'CONSTANT', 'MODULO', 'PRINT', 'NIL', 'NOT', 'PRINT', 'NIL', 'RETURN']);
  });

  it('uses absolute jump targets for and / or / if / while', () => {
    expect(listing(script('print true and false;'))).toEqual(['TRUE', 'JUMP_IF_FALSE 5', 'POP', 'FALSE', 'PRINT', 'NIL', 'RETURN']);
    expect(listing(script('print nil or 1;'))).toEqual(['NIL', 'JUMP_IF_FALSE 5', 'JUMP 8', 'POP', 'CONSTANT 0', 'PRINT', 'NIL', 'RETURN']);
    expect(listing(script('if (true) print 1; else print 2;'))).toEqual([
      'TRUE', 'JUMP_IF_FALSE 9', 'POP', 'CONSTANT 0', 'PRINT', 'JUMP 13', 'POP', 'CONSTANT 1', 'PRINT', 'NIL', 'RETURN',
    ]);
    expect(listing(script('while (false) print 1;'))).toEqual(['FALSE', 'JUMP_IF_FALSE 9', 'POP', 'CONSTANT 0', 'PRINT', 'LOOP 0', 'POP', 'NIL', 'RETURN']);
  });

  it('keeps block locals on the stack and pops or closes them at the end of the scope', () => {
    expect(listing(script('{ var a = 1; var b = a; }'))).toEqual(['CONSTANT 0', 'GET_LOCAL 1', 'POP', 'POP', 'NIL', 'RETURN']);
    expect(opNames(script('{ var a = 1; fun f() { return a; } }'))).toEqual(['CONSTANT', 'CLOSURE', 'POP', 'CLOSE_UPVALUE', 'NIL', 'RETURN']);
  });

  it('compiles compound assignment on variables, properties and indexes', () => {
    expect(listing(script('var x = 1; x += 2;'))).toEqual([
      'CONSTANT 0', 'DEFINE_GLOBAL 0', 'GET_GLOBAL 0', 'CONSTANT 1', 'ADD', 'SET_GLOBAL 0', 'POP', 'NIL', 'RETURN',
    ]);
    expect(opNames(script('var o; o.hp -= 1;'))).toEqual([
      'NIL', 'DEFINE_GLOBAL', 'GET_GLOBAL', 'DUP', 'GET_PROPERTY', 'CONSTANT', 'SUBTRACT', 'SET_PROPERTY', 'POP', 'NIL', 'RETURN',
    ]);
    expect(opNames(script('var l = [1]; l[0] *= 3;'))).toEqual([
      'CONSTANT', 'BUILD_LIST', 'DEFINE_GLOBAL', 'GET_GLOBAL', 'CONSTANT', 'DUP2', 'GET_INDEX', 'CONSTANT', 'MULTIPLY', 'SET_INDEX', 'POP', 'NIL', 'RETURN',
    ]);
  });

  it('compiles for-in with hidden list and index slots and a fresh variable per iteration', () => {
    expect(listing(script('{ for (x in [1, 2]) print x; }'))).toEqual([
      'CONSTANT 0', 'CONSTANT 1', 'BUILD_LIST 2', 'CONSTANT 2',
      'FOR_ITER 1 17', 'GET_LOCAL 3', 'PRINT', 'POP', 'LOOP 8',
      'POP', 'POP', 'NIL', 'RETURN',
    ]);
    const capturing = script('for (x in [1]) { fun f() { return x; } }');
    expect(opNames(capturing)).toContain('CLOSE_UPVALUE');
  });

  it('emits the clox class declaration sequence, with a super scope for subclasses', () => {
    expect(opNames(script('class A { m() {} } class B < A { m() { return super.m(); } }'))).toEqual([
      'CLASS', 'DEFINE_GLOBAL', 'GET_GLOBAL', 'CLOSURE', 'METHOD', 'POP',
      'CLASS', 'DEFINE_GLOBAL', 'GET_GLOBAL', 'GET_GLOBAL', 'INHERIT', 'GET_GLOBAL', 'CLOSURE', 'METHOD', 'POP', 'CLOSE_UPVALUE',
      'NIL', 'RETURN',
    ]);
  });

  it('uses INVOKE, SUPER_INVOKE, CALL_HOST and HOST_FUNCTION where they apply', () => {
    const module = compileOk('class A { m() {} } class B < A { m() { this.m(); super.m(1); return super.m; } } print len([]); var f = len;', { hosts: TEST_HOSTS });
    const m = module.functions.find((fn) => fn.name === 'm' && fn.upvalues.length === 1)!;
    expect(opNames(m)).toEqual([
      'GET_LOCAL', 'INVOKE', 'POP',
      'GET_LOCAL', 'CONSTANT', 'GET_UPVALUE', 'SUPER_INVOKE', 'POP',
      'GET_LOCAL', 'GET_UPVALUE', 'GET_SUPER', 'RETURN',
      'NIL', 'RETURN',
    ]);
    const names = opNames(module.functions[0]!);
    expect(names).toContain('CALL_HOST');
    expect(names).toContain('HOST_FUNCTION');
  });

  it('returns this from initializers, implicitly and on a bare return', () => {
    const module = compileOk('class A { init() { if (true) return; } }');
    const init = module.functions[1]!;
    expect(init.kind).toBe('initializer');
    expect(listing(init).slice(-2)).toEqual(['GET_LOCAL 0', 'RETURN']);
    expect(listing(init).filter((l) => l === 'GET_LOCAL 0')).toHaveLength(2);
  });
});

describe('emitter: module tables', () => {
  it('deduplicates the module-wide constant pool across functions', () => {
    const module = compileOk('print 1; print "a"; fun f() { print 1; print "a"; return "b"; } var a = 1;');
    expect(module.constants).toEqual([1, 'a', 'b']);
  });

  it('lists functions with kinds, arities and upvalue descriptors', () => {
    const module = compileOk('fun outer(a, b) { var c; fun inner() { return a + c; } return inner; }');
    expect(module.functions.map((f) => [f.name, f.kind, f.arity])).toEqual([
      ['', 'script', 0],
      ['outer', 'function', 2],
      ['inner', 'function', 0],
    ]);
    expect(module.functions[2]!.upvalues).toEqual([
      { isLocal: true, index: 1 },
      { isLocal: true, index: 3 },
    ]);
  });

  it('enters spells in the spell table and defines them as globals', () => {
    const module = compileOk('spell fireball(caster, target) { print target; } spell heal() {}');
    expect(module.spells).toEqual([
      { name: 'fireball', functionIndex: 1 },
      { name: 'heal', functionIndex: 2 },
    ]);
    expect(module.functions[1]).toMatchObject({ name: 'fireball', kind: 'spell', arity: 2 });
    expect(module.globals).toEqual(['fireball', 'heal']);
  });

  it('gives every code word a line', () => {
    const fn = script('var a = 1;\n\nprint a\n  + 2;');
    expect(fn.lines).toHaveLength(fn.code.length);
    expect([...new Set(fn.lines)]).toEqual([1, 3, 4]);
  });

  it('computes maxStack from the opcode table (slot 0, parameters, locals and temporaries)', () => {
    const module = compileOk('fun f(a, b) { var c = a; return [a, b, c, 1 + 2 * 3]; }');
    // slot 0 + a, b + c + three list elements + 1, 2 and 3 before MULTIPLY.
    expect(module.functions[1]!.maxStack).toBe(1 + 2 + 1 + 3 + 3);
    expect(module.functions[0]!.maxStack).toBe(2);
  });

  it('records local variable debug ranges', () => {
    const module = compileOk('fun f(a) { { var b = a; } var c; }');
    const locals = module.functions[1]!.locals;
    expect(locals.map((l) => [l.name, l.slot])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 2],
    ]);
    for (const l of locals) expect(l.endPc).toBeGreaterThanOrEqual(l.startPc);
  });
});
