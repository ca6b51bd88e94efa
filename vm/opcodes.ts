/**
 * The opcode table: numbers, operands, stack effects and docs, derived from
 * the instruction definitions (vm/instructions/), for the emitter, the
 * loader, the verifier, the disassembler and the docs.
 *
 * Code is an Int32Array of words: one word for the opcode, then one word per
 * operand. Jump operands are absolute word offsets inside the same function.
 *
 * `stack` is the net stack effect when the instruction falls through. It is a
 * number, or a function of the operands for variable effects (calls, lists).
 * `branchStack` is the net effect when a branching instruction jumps.
 * Operand kinds tell the verifier which table an index points into.
 */

import { popsOf, stackOf, type OperandKind, type StackEffect } from './instructions/define.js';
import { INSTRUCTIONS } from './instructions/index.js';


export type { OperandKind, StackEffect } from './instructions/define.js';

export interface OpcodeInfo {
  readonly name: string;
  readonly operands: readonly OperandKind[];
  /** Net stack effect on fall-through. */
  readonly stack: StackEffect;
  /** Net stack effect when the jump is taken (branching instructions only). */
  readonly branchStack?: number;
  /** Minimum stack depth (above the frame's locals) the instruction reads. */
  readonly pops: StackEffect;
  /** True when control never falls through to the next instruction. */
  readonly terminal?: boolean;
  readonly doc: string;
}

/** The table, one row per instruction definition (vm/instructions/), in opcode order. */
export const OPCODES: readonly OpcodeInfo[] = INSTRUCTIONS.map(
  (def): OpcodeInfo => ({
    name: def.name,
    operands: def.operands,
    pops: popsOf(def),
    stack: stackOf(def),
    doc: def.doc,
    ...(def.branchStack !== undefined ? { branchStack: def.branchStack } : {}),
    ...(def.terminal !== undefined ? { terminal: def.terminal } : {}),
  }),
);

type OpcodeName = (typeof INSTRUCTIONS)[number]['name'];

/** Numeric opcodes by name: `Op.ADD`. */
export const Op = Object.freeze(
  Object.fromEntries(OPCODES.map((info, i) => [info.name, i])) as { [K in OpcodeName]: number },
);

export const OPCODE_COUNT = OPCODES.length;

/** Words an instruction occupies (opcode + operands). */
export function instructionSize(opcode: number): number {
  return 1 + OPCODES[opcode]!.operands.length;
}

export function stackEffect(effect: StackEffect, operands: readonly number[]): number {
  return typeof effect === 'number' ? effect : effect(operands);
}
