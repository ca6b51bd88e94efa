import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asmModule } from './assemble.test-helper.js';
import { disassemble, disassembleFunction, formatConstant } from './disassembler.js';
import type { Module } from './module.js';
import { OPCODES } from './opcodes.js';

const module: Module = asmModule({
  constants: [1.5, 'hi\n', 2, 'speak'],
  globals: ['counter'],
  hostImports: [{ name: 'damage', arities: [2] }],
  functions: [
    {
      code: [
        '#1', 'CONSTANT', 0, 'PRINT',
        '#3', 'CLOSURE', 1, 'DEFINE_GLOBAL', 0,
        'GET_GLOBAL', 0, 'JUMP_IF_FALSE', '@end',
        '#4', 'POP', 'CONSTANT', 1, 'PRINT', 'JUMP', '@done',
        'end:', 'POP',
        'done:', '#5', 'NIL', 'RETURN',
      ],
    },
    {
      name: 'inner',
      arity: 1,
      upvalues: [{ isLocal: true, index: 1 }, { isLocal: false, index: 0 }],
      locals: [{ name: 'n', slot: 1, startPc: 0, endPc: 20 }],
      code: [
        '#7', 'GET_LOCAL', 1, 'GET_LOCAL', 1, 'CONSTANT', 2, 'CALL_HOST', 0, 2, 'POP',
        'GET_UPVALUE', 0, 'INVOKE', 3, 1, 'RETURN',
      ],
    },
  ],
});

describe('disassemble', () => {
  it('prints a clox-style listing', () => {
    expect(disassemble(module)).toBe(
      [
        '== <script> ==',
        "0000    1 CONSTANT            0 '1.5'",
        '0002    | PRINT',
        '0003    3 CLOSURE             1 <fn inner> [local 1, upvalue 0]',
        "0005    | DEFINE_GLOBAL       0 'counter'",
        "0007    | GET_GLOBAL          0 'counter'",
        '0009    | JUMP_IF_FALSE    -> 0017',
        '0011    4 POP',
        "0012    | CONSTANT            1 'hi\\n'",
        '0014    | PRINT',
        '0015    | JUMP             -> 0018',
        '0017    | POP',
        '0018    5 NIL',
        '0019    | RETURN',
        '',
        '== inner ==',
        '0000    7 GET_LOCAL           1 (n)',
        '0002    | GET_LOCAL           1 (n)',
        "0004    | CONSTANT            2 '2'",
        '0006    | CALL_HOST           0 <host damage> (2 args)',
        '0009    | POP',
        '0010    | GET_UPVALUE         0',
        "0012    | INVOKE              3 'speak' (1 arg)",
        '0015    | RETURN',
        '',
      ].join('\n'),
    );
  });

  it('gives a structured form mapping offsets to lines', () => {
    const listing = disassembleFunction(module, 0);
    expect(listing.map((i) => i.offset)).toEqual([0, 2, 3, 5, 7, 9, 11, 12, 14, 15, 17, 18, 19]);
    expect(listing[3]).toEqual({ offset: 5, line: 3, opcode: 'DEFINE_GLOBAL', text: "DEFINE_GLOBAL       0 'counter'" });
    expect(disassembleFunction(module, 99)).toEqual([]);
  });

  it('formats constants as Lox prints them', () => {
    expect(formatConstant(3)).toBe("'3'");
    expect(formatConstant(-0)).toBe("'-0'");
    expect(formatConstant('a"b')).toBe("'a\\\"b'");
    expect(formatConstant(undefined)).toBe('<no such constant>');
  });

  it('renders every opcode of the table', () => {
    for (let opcode = 0; opcode < OPCODES.length; opcode++) {
      const info = OPCODES[opcode]!;
      const m = asmModule({ functions: [{ code: [info.name, ...info.operands.map(() => 0)] }] });
      const [instruction] = disassembleFunction(m, 0);
      expect(instruction!.opcode).toBe(info.name);
      expect(instruction!.text.startsWith(info.name)).toBe(true);
    }
  });

  it('shows what is wrong with bad code instead of throwing', () => {
    const bad = asmModule({ constants: [], functions: [{ code: [999, 'CONSTANT', 5, 'GET_LOCAL'] }] });
    expect(disassemble(bad)).toBe(
      [
        '== <script> ==',
        '0000    1 UNKNOWN 999',
        "0001    | CONSTANT            5 <no such constant>",
        '0003    | GET_LOCAL        <missing operand>',
        '',
      ].join('\n'),
    );
  });

  it('never throws on random code', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: OPCODES.length + 3 }), { maxLength: 60 }), (words) => {
        const m = asmModule({ constants: [1], globals: ['g'], functions: [{ code: words }, { code: ['NIL'] }] });
        const listing = disassembleFunction(m, 0);
        expect(listing.length).toBeLessThanOrEqual(words.length);
        expect(typeof disassemble(m)).toBe('string');
      }),
      { numRuns: 500, seed: 6 },
    );
  });
});
