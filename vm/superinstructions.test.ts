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
    expect(fused[0]).toBe(SUPERINSTRUCTIONS.S_ADD_LOCAL_CONSTANT);
    expect(fused[5]).toBe(SUPERINSTRUCTIONS.S_SET_LOCAL_POP);
    expect(fused[8]).toBe(SUPERINSTRUCTIONS.S_GET_LOCAL2);
    expect(fused[12]).toBe(SUPERINSTRUCTIONS.S_LESS_JUMP);
    const changed = [...fused.keys()].filter((i) => fused[i] !== code[i]);
    expect(changed).toEqual([0, 5, 8, 12]);
    expect(fused[13]).toBe(Op.JUMP_IF_FALSE);
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
