/**
 * Renders vm/opcode-numbers.ts from the opcode table. The interpreter's
 * `switch` uses those plain numeric constants because V8 builds a jump table
 * only when it can see the case values as constants (measured: see the
 * comment in vm/opcode-numbers.ts). vm/opcode-numbers.test.ts checks the file
 * is current and rewrites it with UPDATE_OPCODE_NUMBERS=1.
 */

import { OPCODES } from './opcodes.js';

export function renderOpcodeNumbers(): string {
  const lines = [
    '// Generated from vm/opcodes.ts by vm/opcode-numbers.gen.ts — do not edit.',
    '// Regenerate: UPDATE_OPCODE_NUMBERS=1 npx vitest run vm/opcode-numbers.test.ts',
    '// Plain numeric constants, so the interpreter switch compiles to a jump table.',
    '',
    ...OPCODES.map((info, i) => `export const ${info.name} = ${i};`),
    '',
  ];
  return lines.join('\n');
}
