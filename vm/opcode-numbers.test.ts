import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONTINUATION_OPCODES, INSTRUCTIONS } from './instructions/index.js';
import { OPCODES } from './opcodes.js';
import { SUPERINSTRUCTIONS } from './superinstructions.js';
import { RELOAD_OPCODE } from './generator/interpreter-tier.js';

/**
 * The generated interpreter writes its switch cases as numeric literals with
 * the opcode name in a comment (`case 22 \/* ADD *\/:`), because V8 only
 * builds a jump table for constant case values. This keeps those literals
 * honest against the one opcode table, and the table's numbers fixed: they
 * are the .spb format.
 */
const source = readFileSync(fileURLToPath(new URL('./generated/interpreter.ts', import.meta.url)), 'utf8');
const cases = [...source.matchAll(/case (-?\d+) \/\* ([A-Z_0-9]+)[ :*]/g)].map((m) => ({ value: Number(m[1]), name: m[2]! }));

describe("the interpreter's case labels", () => {
  it('handle every opcode exactly once, under its table number', () => {
    const opcodeCases = cases.filter((c) => c.value >= 0 && c.value < 64);
    expect(opcodeCases.map((c) => c.name).sort()).toEqual(OPCODES.map((o) => o.name).sort());
    for (const c of opcodeCases) expect(OPCODES[c.value]?.name).toBe(c.name);
  });

  it('handle every superinstruction under its number', () => {
    const superCases = cases.filter((c) => c.value >= 64);
    expect(Object.fromEntries(superCases.map((c) => [c.name, c.value]))).toEqual(SUPERINSTRUCTIONS);
    expect(Math.min(...Object.values(SUPERINSTRUCTIONS))).toBeGreaterThanOrEqual(OPCODES.length);
  });

  it('use negative numbers only for the call continuations and the return from compiled code', () => {
    const negative = cases.filter((c) => c.value < 0);
    expect(Object.fromEntries(negative.map((c) => [c.name, c.value]))).toEqual({ ...CONTINUATION_OPCODES, RELOAD: RELOAD_OPCODE });
  });
});

describe('the opcode numbers', () => {
  it('never change: they are the .spb format (append new instructions at the end)', () => {
    expect(INSTRUCTIONS.map((d) => d.name)).toEqual([
      'CONSTANT', 'NIL', 'TRUE', 'FALSE', 'POP', 'DUP', 'DUP2', 'GET_LOCAL', 'SET_LOCAL', 'GET_GLOBAL',
      'DEFINE_GLOBAL', 'SET_GLOBAL', 'GET_UPVALUE', 'SET_UPVALUE', 'GET_PROPERTY', 'SET_PROPERTY', 'GET_SUPER',
      'GET_INDEX', 'SET_INDEX', 'EQUAL', 'GREATER', 'LESS', 'ADD', 'SUBTRACT', 'MULTIPLY', 'DIVIDE', 'MODULO',
      'NOT', 'NEGATE', 'PRINT', 'JUMP', 'JUMP_IF_FALSE', 'LOOP', 'CALL', 'INVOKE', 'SUPER_INVOKE', 'CALL_HOST',
      'HOST_FUNCTION', 'CLOSURE', 'CLOSE_UPVALUE', 'RETURN', 'CLASS', 'INHERIT', 'METHOD', 'BUILD_LIST',
      'FOR_ITER', 'BREAK', 'BUILD_MAP', 'TEMPLATE',
    ]);
  });
});
