import { describe, expect, it } from 'vitest';
import { OPCODES } from '../../../vm/opcodes.js';
import { opcodeHelp } from './opcodeDocs.js';

describe('opcodeHelp', () => {
  it('gives every opcode of the table its one-line doc and operands', () => {
    for (const info of OPCODES) {
      const help = opcodeHelp(info.name);
      expect(help?.doc, info.name).toBe(info.doc);
      expect(help?.doc.length, `${info.name} has a doc`).toBeGreaterThan(0);
    }
    expect(opcodeHelp('CONSTANT')).toEqual({ name: 'CONSTANT', doc: 'push constants[k]', operands: 'constant' });
    expect(opcodeHelp('NOT_AN_OPCODE')).toBeNull();
  });
});
