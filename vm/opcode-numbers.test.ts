import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withOpcodeNumbers } from './opcode-numbers.gen.js';
import { OPCODES } from './opcodes.js';

const vmFile = fileURLToPath(new URL('./vm.ts', import.meta.url));

describe("vm.ts's opcode constants", () => {
  it('are generated from the current opcode table', () => {
    const source = readFileSync(vmFile, 'utf8');
    const expected = withOpcodeNumbers(source);
    if (process.env.UPDATE_OPCODE_NUMBERS && expected !== source) writeFileSync(vmFile, expected);
    expect(source).toBe(expected);
  });

  it('handle every opcode in the interpreter switch', () => {
    const source = readFileSync(vmFile, 'utf8');
    for (const info of OPCODES) expect(source).toContain(`case ${info.name}:`);
  });
});
