/**
 * What an instruction does, for the bytecode panel's hover: read from the
 * opcode table (vm/opcodes.ts), the one place the instruction set is defined.
 */
import { OPCODES, type OpcodeInfo } from '../../../vm/opcodes.js';

const BY_NAME = new Map<string, OpcodeInfo>(OPCODES.map((info) => [info.name, info]));

export interface OpcodeHelp {
  readonly name: string;
  /** One line from the table, e.g. "push constants[k]". */
  readonly doc: string;
  /** The operand kinds, e.g. "constant", or "" for none. */
  readonly operands: string;
}

export function opcodeHelp(name: string): OpcodeHelp | null {
  const info = BY_NAME.get(name);
  if (!info) return null;
  return { name: info.name, doc: info.doc, operands: info.operands.join(', ') };
}
