import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asmModule } from './assemble.test-helper.js';
import { disassemble } from './disassembler.js';
import { renderOpcodeTable, withOpcodeTable } from './gen-opcode-doc.js';
import { OPCODES } from './opcodes.js';
import { writeSpb } from './spb.js';

const doc = readFileSync(new URL('../docs/bytecode.md', import.meta.url), 'utf8');

/** The module of the doc's worked example: `print 1 + 2;`. */
const example = asmModule({
  sourceName: 'add.spell',
  constants: [1, 2],
  functions: [{ maxStack: 3, code: ['#1', 'CONSTANT', 0, 'CONSTANT', 1, 'ADD', 'PRINT', '#2', 'NIL', 'RETURN'] }],
});

/** The hex bytes of a ```text block: on each line, the leading two-digit hex tokens (annotations follow). */
function hexBytesIn(block: string): number[] {
  const bytes: number[] = [];
  for (const line of block.split('\n')) {
    for (const token of line.trim().split(/\s+/)) {
      if (!/^[0-9a-f]{2}$/.test(token)) break;
      bytes.push(parseInt(token, 16));
    }
  }
  return bytes;
}

describe('docs/bytecode.md', () => {
  it('lists every opcode, generated from the table', () => {
    expect(withOpcodeTable(doc)).toBe(doc);
    for (const info of OPCODES) expect(doc).toContain(`\`${info.name}\``);
  });

  it('renders variable stack effects as formulas', () => {
    const table = renderOpcodeTable();
    expect(table).toContain('| `CALL` | `count` | n+1 | -n |');
    expect(table).toContain('| `SUPER_INVOKE` | `name`, `count` | n+2 | -n-1 |');
    expect(table).toContain('| `BUILD_LIST` | `count` | n | 1-n |');
  });

  it('shows the real bytes of the worked example', () => {
    const block = doc.split('### Example')[1]!.split('```text\n')[1]!.split('```')[0]!;
    const bytes = writeSpb(example);
    expect(hexBytesIn(block)).toEqual([...bytes]);
    expect(doc).toContain(`(${bytes.length} bytes)`);
  });

  it('shows the real disassembly of the worked example', () => {
    expect(doc).toContain(disassemble(example));
  });
});
