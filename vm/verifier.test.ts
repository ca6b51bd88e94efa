import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asmModule, type AsmFunction, type AsmModule } from './assemble.test-helper.js';
import { VerifyError } from './errors.js';
import type { HostFunctionSpec } from './host.js';
import type { Module } from './module.js';
import { OPCODES } from './opcodes.js';
import { writeSpb } from './spb.js';
import { readVerifiedSpb, verifyModule } from './verifier.js';

const HOSTS: HostFunctionSpec[] = [
  { name: 'len', params: [{ name: 'x', type: 'any' }], returns: 'number', doc: 'length' },
  {
    name: 'damage',
    params: [
      { name: 'target', type: 'entity' },
      { name: 'amount', type: 'number' },
      { name: 'kind', type: 'string', optional: true },
    ],
    returns: 'nil',
    doc: 'hurt',
  },
];

/** A module whose script is `code`, plus any extra functions. */
function script(code: AsmFunction['code'], extra: Partial<AsmModule> = {}, scriptFields: Partial<AsmFunction> = {}): Module {
  return asmModule({
    constants: [1, 'name', 2],
    globals: ['g'],
    ...extra,
    functions: [{ ...scriptFields, code }, ...(extra.functions ?? [])],
  });
}

function verify(module: Module): void {
  verifyModule(module, HOSTS);
}

function rejection(module: Module): VerifyError {
  try {
    verify(module);
  } catch (error) {
    expect(error).toBeInstanceOf(VerifyError);
    return error as VerifyError;
  }
  throw new Error('expected a VerifyError');
}

describe('verifyModule accepts well-formed code', () => {
  it('accepts a minimal script', () => {
    expect(() => verify(script(['NIL', 'RETURN']))).not.toThrow();
  });

  it('accepts branches that merge at the same depth, loops and locals', () => {
    // var i = 0; while (i < 2) { print i; i = i + 1; }
    const m = script([
      'CONSTANT', 0,
      'loop:', 'GET_LOCAL', 1, 'CONSTANT', 2, 'LESS', 'JUMP_IF_FALSE', '@exit',
      'POP', 'GET_LOCAL', 1, 'PRINT',
      'GET_LOCAL', 1, 'CONSTANT', 0, 'ADD', 'SET_LOCAL', 1, 'POP', 'LOOP', '@loop',
      'exit:', 'POP', 'POP', 'NIL', 'RETURN',
    ]);
    expect(() => verify(m)).not.toThrow();
  });

  it('accepts closures capturing locals (even their own slot) and upvalues', () => {
    const m = script(['CONSTANT', 0, 'CLOSURE', 1, 'POP', 'POP', 'NIL', 'RETURN'], {
      functions: [
        { name: 'outer', upvalues: [{ isLocal: true, index: 1 }, { isLocal: true, index: 2 }], code: ['CLOSURE', 2, 'RETURN'] },
        { name: 'inner', upvalues: [{ isLocal: false, index: 1 }], code: ['GET_UPVALUE', 0, 'RETURN'] },
      ],
    });
    expect(() => verify(m)).not.toThrow();
  });

  it('accepts host calls with declared arities, spells and for-in', () => {
    const m = script(['CLOSURE', 1, 'DEFINE_GLOBAL', 0, 'NIL', 'RETURN'], {
      hostImports: [{ name: 'damage', arities: [2, 3] }, { name: 'len', arities: [1] }],
      spells: [{ name: 'zap', functionIndex: 1 }],
      functions: [
        {
          name: 'zap',
          kind: 'spell',
          arity: 2,
          maxStack: 6,
          code: [
            'GET_LOCAL', 1, 'GET_LOCAL', 2, 'CALL_HOST', 0, 2, 'POP',
            'GET_LOCAL', 1, 'BUILD_LIST', 1, 'CONSTANT', 0, // list, index in slots 3, 4
            'next:', 'FOR_ITER', 3, '@done', 'CALL_HOST', 1, 1, 'POP', 'LOOP', '@next',
            'done:', 'POP', 'POP', 'NIL', 'RETURN',
          ],
        },
      ],
    });
    expect(() => verify(m)).not.toThrow();
  });

  it('ignores stack shape in unreachable code', () => {
    expect(() => verify(script(['NIL', 'RETURN', 'POP', 'POP', 'RETURN']))).not.toThrow();
  });
});

describe('verifyModule rejects', () => {
  const cases: [string, Module, RegExp][] = [
    ['an unknown opcode', script([999, 'NIL', 'RETURN']), /Unknown opcode 999/],
    ['a negative opcode', script([-1, 'RETURN']), /Unknown opcode -1/],
    ['an instruction cut off at the end', script(['NIL', 'RETURN', 'CONSTANT']), /CONSTANT runs past the end/],
    ['empty code', script([]), /no code/],
    ['falling off the end', script(['NIL', 'PRINT']), /falls off the end/],
    ['a jump into the middle of an instruction', script(['JUMP', 3, 'CONSTANT', 0, 'RETURN']), /jumps to 3/],
    ['a jump past the end', script(['JUMP', 99, 'NIL', 'RETURN']), /jumps to 99/],
    ['a negative jump', script(['LOOP', -2, 'NIL', 'RETURN']), /jumps to -2/],
    ['a backward JUMP (a loop that charges no fuel)', script(['top:', 'JUMP', '@top']), /JUMP jumps backward to 0; only LOOP may/],
    [
      'a backward JUMP_IF_FALSE',
      script(['NIL', 'top:', 'JUMP_IF_FALSE', '@top', 'RETURN']),
      /JUMP_IF_FALSE jumps backward to 1/,
    ],
    [
      'a backward FOR_ITER',
      script(['NIL', 'NIL', 'top:', 'FOR_ITER', 1, '@top', 'POP', 'RETURN']),
      /FOR_ITER jumps backward to 2/,
    ],
    ['a forward LOOP (it would refund fuel)', script(['LOOP', '@end', 'end:', 'NIL', 'RETURN']), /LOOP jumps forward to 2/],
    ['a constant out of range', script(['CONSTANT', 3, 'RETURN']), /constant 3, but there are 3/],
    ['a number used as a name', script(['NIL', 'GET_PROPERTY', 0, 'RETURN']), /needs a name, but constant 0 is a number/],
    ['a global out of range', script(['GET_GLOBAL', 1, 'RETURN']), /global 1/],
    ['an upvalue the function lacks', script(['GET_UPVALUE', 0, 'RETURN']), /upvalue 0, but there are 0/],
    ['a local past maxStack', script(['GET_LOCAL', 9, 'RETURN']), /stack slot 9/],
    ['a local not yet on the stack', script(['GET_LOCAL', 2, 'RETURN']), /slot 2, but only 1 slots are live/],
    ['a stack underflow', script(['POP', 'NIL', 'RETURN']), /POP needs 1 value on the stack/],
    ['popping slot 0', script(['NIL', 'POP', 'POP', 'NIL', 'RETURN']), /POP needs 1 value on the stack but finds 0/],
    ['a call with too few values', script(['NIL', 'CALL', 1, 'RETURN']), /CALL needs 2 values/],
    ['a negative count', script(['NIL', 'CALL', -1, 'RETURN']), /bad count -1/],
    ['a return with an empty stack', script(['RETURN']), /RETURN needs 1 value/],
    ['a stack overflow', script(['NIL', 'NIL', 'NIL', 'RETURN'], {}, { maxStack: 3 }), /grows the stack to 4, past maxStack 3/],
    [
      'a merge with different depths',
      script(['TRUE', 'JUMP_IF_FALSE', '@join', 'NIL', 'join:', 'POP', 'NIL', 'RETURN']),
      /does not match depth/,
    ],
    ['a loop that grows the stack', script(['top:', 'NIL', 'LOOP', '@top']), /does not match depth/],
    ['a CLOSURE of the script', script(['CLOSURE', 0, 'RETURN']), /cannot refer to the script/],
    ['a CLOSURE of a missing function', script(['CLOSURE', 4, 'RETURN']), /function 4, but there are 1/],
    [
      'a closure capturing a local the encloser lacks',
      script(['CLOSURE', 1, 'RETURN'], {
        functions: [{ name: 'f', upvalues: [{ isLocal: true, index: 50 }], code: ['NIL', 'RETURN'] }],
      }),
      /captures stack slot 50/,
    ],
    [
      'a closure capturing a dead slot',
      script(['CLOSURE', 1, 'RETURN'], {
        functions: [{ name: 'f', upvalues: [{ isLocal: true, index: 3 }], code: ['NIL', 'RETURN'] }],
      }),
      /captures stack slot 3, but only 2 slots are live/,
    ],
    [
      'a closure capturing an upvalue the encloser lacks',
      script(['CLOSURE', 1, 'RETURN'], {
        functions: [{ name: 'f', upvalues: [{ isLocal: false, index: 0 }], code: ['NIL', 'RETURN'] }],
      }),
      /captures upvalue 0/,
    ],
    ['a host import out of range', script(['HOST_FUNCTION', 0, 'RETURN']), /host import 0/],
    [
      'a host call with an arity the module did not import',
      script(['NIL', 'CALL_HOST', 0, 1, 'RETURN'], { hostImports: [{ name: 'len', arities: [2] }] }),
      /'len' with 2 arguments; it takes 1/,
    ],
    [
      'a host call whose count is not among the imported arities',
      script(['NIL', 'NIL', 'CALL_HOST', 0, 2, 'RETURN'], { hostImports: [{ name: 'len', arities: [1] }] }),
      /calls 'len' with 2 arguments, an arity the module did not import/,
    ],
    [
      'an unknown host function',
      script(['NIL', 'RETURN'], { hostImports: [{ name: 'explode', arities: [0] }] }),
      /host function 'explode', which this host does not provide/,
    ],
    [
      'an optional-parameter host with too many arguments',
      script(['NIL', 'RETURN'], { hostImports: [{ name: 'damage', arities: [4] }] }),
      /takes 2 to 3/,
    ],
    ['FOR_ITER whose index slot is past maxStack', script(['FOR_ITER', 7, '@x', 'x:', 'NIL', 'RETURN']), /stack slot 7/],
    [
      'FOR_ITER whose index slot is not live',
      script(['NIL', 'FOR_ITER', 1, '@x', 'POP', 'x:', 'RETURN']),
      /FOR_ITER uses stack slot 2, but only 2 slots are live/,
    ],
    ['a script with parameters', script(['NIL', 'RETURN'], {}, { arity: 1 }), /script must take no parameters/],
    ['a script that is not kind script', script(['NIL', 'RETURN'], {}, { kind: 'function' }), /must be the script/],
    [
      'maxStack too small for the parameters',
      script(['NIL', 'RETURN'], { functions: [{ name: 'f', arity: 3, maxStack: 2, code: ['NIL', 'RETURN'] }] }),
      /Bad maxStack 2/,
    ],
    [
      'a second script',
      script(['NIL', 'RETURN'], { functions: [{ name: 'f', kind: 'script', code: ['NIL', 'RETURN'] }] }),
      /claims to be a script/,
    ],
    [
      'a spell pointing at a plain function',
      script(['NIL', 'RETURN'], { spells: [{ name: 'zap', functionIndex: 1 }], functions: [{ name: 'f', code: ['NIL', 'RETURN'] }] }),
      /which is a function, not a spell/,
    ],
    ['a spell pointing nowhere', script(['NIL', 'RETURN'], { spells: [{ name: 'zap', functionIndex: 5 }] }), /points at function 5/],
    ['a spell pointing at the script', script(['NIL', 'RETURN'], { spells: [{ name: 'zap', functionIndex: 0 }] }), /points at function 0/],
    [
      'a spell declared twice',
      script(['NIL', 'RETURN'], {
        spells: [{ name: 'zap', functionIndex: 1 }, { name: 'zap', functionIndex: 1 }],
        functions: [{ name: 'zap', kind: 'spell', code: ['NIL', 'RETURN'] }],
      }),
      /declared twice/,
    ],
    [
      'a spell with upvalues',
      script(['NIL', 'RETURN'], {
        spells: [{ name: 'zap', functionIndex: 1 }],
        functions: [{ name: 'zap', kind: 'spell', upvalues: [{ isLocal: true, index: 1 }], code: ['NIL', 'RETURN'] }],
      }),
      /captures upvalues/,
    ],
    [
      'debug locals out of range',
      script(['NIL', 'RETURN'], {}, { locals: [{ name: 'x', slot: 1, startPc: 0, endPc: 9 }] }),
      /Debug info for local 'x'/,
    ],
  ];

  for (const [what, module, message] of cases) {
    it(what, () => {
      expect(rejection(module).message).toMatch(message);
    });
  }

  it('an internal opcode (the debugger BREAK) in a module', () => {
    const opcode = OPCODES.findIndex((info) => info.name === 'BREAK');
    if (opcode < 0) return; // no debugger opcode in this table
    expect(rejection(script([opcode, 'NIL', 'RETURN'])).message).toMatch(/BREAK is internal to the VM/);
  });

  it('a module without functions', () => {
    expect(rejection({ ...script(['NIL', 'RETURN']), functions: [] }).message).toMatch(/no functions/);
  });

  it('a line table of the wrong length', () => {
    const m = script(['NIL', 'RETURN']);
    const fn = { ...m.functions[0]!, lines: new Int32Array(1) };
    expect(rejection({ ...m, functions: [fn] }).message).toMatch(/line table has 1 entries for 2 code words/);
  });

  it('a negative source line', () => {
    const m = script(['NIL', 'RETURN']);
    const fn = { ...m.functions[0]!, lines: Int32Array.of(1, -2) };
    expect(rejection({ ...m, functions: [fn] }).message).toMatch(/gives line -2 to code word 1/);
  });

  it('names the function and offset', () => {
    const m = script(['NIL', 'RETURN'], { functions: [{ name: 'boom', code: ['NIL', 'CONSTANT', 0, 'POP', 'JUMP', 2] }] });
    const error = rejection(m);
    expect(error.functionName).toBe('boom');
    expect(error.offset).toBe(4);
    expect(error.message).toBe('JUMP jumps to 2, which is not an instruction in this function. (in boom at offset 4)');
  });
});

describe('readVerifiedSpb', () => {
  it('reads and verifies in one call', () => {
    const good = script(['NIL', 'RETURN']);
    expect(readVerifiedSpb(writeSpb(good), HOSTS)).toEqual(good);
    expect(() => readVerifiedSpb(writeSpb(script(['POP', 'RETURN'])), HOSTS)).toThrow(VerifyError);
    expect(() => readVerifiedSpb(new Uint8Array([1, 2, 3]), HOSTS)).toThrow(/bad magic/);
  });
});

describe('verifyModule on random code', () => {
  it('only ever throws VerifyError', () => {
    const arbWord = fc.oneof(fc.integer({ min: 0, max: OPCODES.length - 1 }), fc.integer({ min: -2, max: 12 }));
    fc.assert(
      fc.property(fc.array(arbWord, { minLength: 1, maxLength: 40 }), fc.nat({ max: 12 }), (words, maxStack) => {
        const m = script(words, { hostImports: [{ name: 'len', arities: [1] }] }, { maxStack: maxStack + 1 });
        try {
          verify(m);
        } catch (error) {
          expect(error).toBeInstanceOf(VerifyError);
        }
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
});
