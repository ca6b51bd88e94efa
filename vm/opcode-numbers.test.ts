import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as O from './opcode-numbers.js';
import { renderOpcodeNumbers } from './opcode-numbers.gen.js';
import { OPCODES, Op } from './opcodes.js';

const file = fileURLToPath(new URL('./opcode-numbers.ts', import.meta.url));

describe('opcode-numbers.ts', () => {
  it('is generated from the current opcode table', () => {
    const expected = renderOpcodeNumbers();
    if (process.env.UPDATE_OPCODE_NUMBERS) writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });

  it('gives every opcode its table index', () => {
    const numbers = O as Record<string, number>;
    expect(Object.keys(numbers).sort()).toEqual(OPCODES.map((o) => o.name).sort());
    for (const [name, value] of Object.entries(Op)) expect(numbers[name]).toBe(value);
  });
});
