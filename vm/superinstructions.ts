/**
 * Superinstructions: when the VM loads a module it rewrites a copy of each
 * function's code, replacing the opcode word at the start of a hot sequence
 * (found by counting instruction pairs over bench/lang) with one internal
 * opcode that does the whole sequence in one dispatch.
 *
 * The rewrite is in place and only touches that first word: the following
 * instructions stay in the code, untouched. So
 *   - every original instruction boundary still holds its original
 *     instruction: a jump into the middle of a sequence, a return address, a
 *     fiber resumed after a wait, or the debugger switching code all just work;
 *   - a superinstruction only handles the common case (numbers, instance
 *     fields) and otherwise runs its first instruction alone and lets the
 *     dispatch loop continue with the rest, so errors and their lines are
 *     exactly those of the plain code.
 *
 * These opcodes never appear in modules or .spb files; the numbers start at
 * 64, far above the opcode table.
 */

import { OPCODES, Op, instructionSize } from './opcodes.js';

export const SUPERINSTRUCTIONS = {
  /** SET_LOCAL x; POP */
  S_SET_LOCAL_POP: 64,
  /** SET_PROPERTY n; POP (instance receivers) */
  S_SET_PROPERTY_POP: 65,
  /** GET_LOCAL a; GET_LOCAL b */
  S_GET_LOCAL2: 66,
  /** GET_LOCAL a; CONSTANT k */
  S_GET_LOCAL_CONSTANT: 67,
  /** GET_LOCAL a; GET_PROPERTY n (instance field) */
  S_GET_LOCAL_PROPERTY: 68,
  /** POP; GET_LOCAL a */
  S_POP_GET_LOCAL: 69,
  /** LESS; JUMP_IF_FALSE t; POP, where t holds a POP (numbers) */
  S_LESS_JUMP: 70,
  /** JUMP_IF_FALSE t; POP, where t holds a POP */
  S_JUMP_IF_FALSE_POP: 71,
  /** GET_LOCAL a; CONSTANT k; ADD (numbers) */
  S_ADD_LOCAL_CONSTANT: 72,
  /** GET_LOCAL a; CONSTANT k; SUBTRACT (numbers) */
  S_SUBTRACT_LOCAL_CONSTANT: 73,
  /** POP; JUMP t */
  S_POP_JUMP: 74,
  /** POP; LOOP t (charges fuel as LOOP) */
  S_POP_LOOP: 75,
  /** GET_LOCAL a; GET_LOCAL b; ADD (numbers) */
  S_ADD_LOCAL_LOCAL: 76,
  /** GET_LOCAL a; RETURN */
  S_RETURN_LOCAL: 77,
  /** EQUAL; JUMP_IF_FALSE t; POP, where t holds a POP */
  S_EQUAL_JUMP: 78,
  /** GREATER; JUMP_IF_FALSE t; POP, where t holds a POP (numbers) */
  S_GREATER_JUMP: 79,
} as const;

const S = SUPERINSTRUCTIONS;

/** Opcodes at each instruction start of `code`, in order, with their offsets. */
function instructionStarts(code: Int32Array): number[] {
  const starts: number[] = [];
  for (let pc = 0; pc < code.length; ) {
    const op = code[pc]!;
    if (op < 0 || op >= OPCODES.length) return [];
    starts.push(pc);
    pc += instructionSize(op);
  }
  return starts;
}

/** A copy of `code` with superinstruction heads written over hot sequences. */
export function fuseSuperinstructions(code: Int32Array): Int32Array {
  const fused = Int32Array.from(code);
  const starts = instructionStarts(code);
  const opAt = (k: number): number => (k < starts.length ? code[starts[k]!]! : -1);
  const targetHoldsPop = (jumpPc: number): boolean => code[code[jumpPc + 1]!] === Op.POP;
  for (let k = 0; k < starts.length; ) {
    const pc = starts[k]!;
    const a = opAt(k);
    const b = opAt(k + 1);
    const c = opAt(k + 2);
    let head = -1;
    let covers = 1;
    if (a === Op.GET_LOCAL && b === Op.CONSTANT && c === Op.ADD) [head, covers] = [S.S_ADD_LOCAL_CONSTANT, 3];
    else if (a === Op.GET_LOCAL && b === Op.CONSTANT && c === Op.SUBTRACT) [head, covers] = [S.S_SUBTRACT_LOCAL_CONSTANT, 3];
    else if (a === Op.GET_LOCAL && b === Op.GET_LOCAL && c === Op.ADD) [head, covers] = [S.S_ADD_LOCAL_LOCAL, 3];
    else if (a === Op.LESS && b === Op.JUMP_IF_FALSE && c === Op.POP && targetHoldsPop(starts[k + 1]!)) [head, covers] = [S.S_LESS_JUMP, 3];
    else if (a === Op.EQUAL && b === Op.JUMP_IF_FALSE && c === Op.POP && targetHoldsPop(starts[k + 1]!)) [head, covers] = [S.S_EQUAL_JUMP, 3];
    else if (a === Op.GREATER && b === Op.JUMP_IF_FALSE && c === Op.POP && targetHoldsPop(starts[k + 1]!)) [head, covers] = [S.S_GREATER_JUMP, 3];
    else if (a === Op.JUMP_IF_FALSE && b === Op.POP && targetHoldsPop(pc)) [head, covers] = [S.S_JUMP_IF_FALSE_POP, 2];
    else if (a === Op.SET_LOCAL && b === Op.POP) [head, covers] = [S.S_SET_LOCAL_POP, 2];
    else if (a === Op.SET_PROPERTY && b === Op.POP) [head, covers] = [S.S_SET_PROPERTY_POP, 2];
    else if (a === Op.GET_LOCAL && b === Op.GET_PROPERTY) [head, covers] = [S.S_GET_LOCAL_PROPERTY, 2];
    else if (a === Op.GET_LOCAL && b === Op.RETURN) [head, covers] = [S.S_RETURN_LOCAL, 2];
    else if (a === Op.GET_LOCAL && b === Op.GET_LOCAL) [head, covers] = [S.S_GET_LOCAL2, 2];
    else if (a === Op.GET_LOCAL && b === Op.CONSTANT) [head, covers] = [S.S_GET_LOCAL_CONSTANT, 2];
    else if (a === Op.POP && b === Op.GET_LOCAL) [head, covers] = [S.S_POP_GET_LOCAL, 2];
    else if (a === Op.POP && b === Op.JUMP) [head, covers] = [S.S_POP_JUMP, 2];
    else if (a === Op.POP && b === Op.LOOP) [head, covers] = [S.S_POP_LOOP, 2];
    if (head >= 0) fused[pc] = head;
    k += covers;
  }
  return fused;
}
