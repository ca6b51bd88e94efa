/**
 * The interpreter's opcode constants, generated from the opcode table into a
 * marked region of vm/vm.ts.
 *
 * Why a generated copy: V8 turns the interpreter's `switch` into a jump table
 * only when it sees the case values as constants. Measured on fib(30) and a
 * 10M-iteration loop (CPU ms, steady state): `case O.ADD` through an import
 * 323 / 1344; named imports 355 / 1437; a module-local `const O = Op` 231 / 944;
 * numeric literals or module-local `const ADD = 22` 150 / 650. So vm.ts keeps
 * module-local constants, and vm/opcode-numbers.test.ts checks they match the
 * table (UPDATE_OPCODE_NUMBERS=1 rewrites them).
 */

import { OPCODES } from './opcodes.js';

export const OPCODE_NUMBERS_START = '// opcode-numbers:start (generated from vm/opcodes.ts by vm/opcode-numbers.gen.ts; do not edit)';
export const OPCODE_NUMBERS_END = '// opcode-numbers:end';

export function renderOpcodeNumbers(): string {
  return [OPCODE_NUMBERS_START, ...OPCODES.map((info, i) => `const ${info.name} = ${i};`), OPCODE_NUMBERS_END].join('\n');
}

/** `source` with its generated region replaced by the current table. */
export function withOpcodeNumbers(source: string): string {
  const start = source.indexOf(OPCODE_NUMBERS_START);
  const end = source.indexOf(OPCODE_NUMBERS_END);
  if (start < 0 || end < start) throw new Error('vm.ts has no opcode-numbers region');
  return source.slice(0, start) + renderOpcodeNumbers() + source.slice(end + OPCODE_NUMBERS_END.length);
}
