/**
 * Superinstructions: when the VM loads a module it rewrites a copy of each
 * function's code, replacing the opcode word at the start of a hot sequence
 * (found by counting instruction pairs over bench/lang) with one internal
 * opcode that runs the whole sequence in one dispatch.
 *
 * A superinstruction is a composition of instruction definitions
 * (vm/instructions/), nothing more: the generator (vm/generator/) pastes the
 * definitions' bodies one after the other, passing values between them in
 * locals instead of through the stack. Each part keeps its own slow path and
 * errors, so a superinstruction behaves exactly as the plain code does.
 *
 * The rewrite is in place and only touches that first word: the following
 * instructions stay in the code, untouched. So every original instruction
 * boundary still holds its original instruction: a jump into the middle of a
 * sequence, a return address, a fiber resumed after a wait, or the debugger
 * switching code all just work.
 *
 * These opcodes never appear in modules or .spb files; the numbers start at
 * 64, far above the opcode table.
 */

import { OPCODES, Op, instructionSize } from './opcodes.js';

/**
 * A step of a sequence: an instruction; `JUMP_IF_FALSE_POP` for JUMP_IF_FALSE t
 * then POP where t holds a POP too (the condition is popped on both paths, so
 * the taken branch skips the POP at t); or `FOLLOW` after a JUMP or LOOP: the
 * sequence goes on at the jump's target.
 */
export type Step = keyof typeof Op | 'JUMP_IF_FALSE_POP' | 'FOLLOW';

export interface Superinstruction {
  readonly name: string;
  readonly steps: readonly Step[];
}

const s = (name: string, ...steps: Step[]): Superinstruction => ({ name, steps });
const GL = 'GET_LOCAL';
const K = 'CONSTANT';
const JIFP = 'JUMP_IF_FALSE_POP';
const INC: readonly Step[] = [GL, K, 'ADD', 'SET_LOCAL', 'POP'];

/** The sequences, longest first where one is the start of another. A head's number is 64 + its index. */
export const SUPERINSTRUCTION_LIST: readonly Superinstruction[] = [
  s('S_POP_LOOP_INC_LOOP', 'POP', 'LOOP', 'FOLLOW', ...INC, 'LOOP'), // a for loop's body ending with a block's local popped
  s('S_LOOP_INC_LOOP', 'LOOP', 'FOLLOW', ...INC, 'LOOP'), // the end of a for loop's body, its increment and back edge
  s('S_INC_LOCAL_LOOP', ...INC, 'LOOP'), // a for loop's increment
  s('S_INC_FIELD', GL, GL, 'GET_PROPERTY', K, 'ADD', 'SET_PROPERTY', 'POP'), // `this.x = this.x + k;`
  s('S_INC_LOCAL_JUMP', ...INC, 'JUMP'), // `c = a + k` ending an if's branch
  s('S_LL_NOT_EQUAL_JUMP', GL, GL, 'EQUAL', 'NOT', JIFP),
  s('S_LK_NOT_EQUAL_JUMP', GL, K, 'EQUAL', 'NOT', JIFP),
  s('S_LL_LESS_JUMP_JUMP', GL, GL, 'LESS', JIFP, 'JUMP'), // a for loop's condition and its jump over the increment
  s('S_LK_LESS_JUMP_JUMP', GL, K, 'LESS', JIFP, 'JUMP'),
  s('S_LL_GREATER_JUMP_JUMP', GL, GL, 'GREATER', JIFP, 'JUMP'),
  s('S_LK_GREATER_JUMP_JUMP', GL, K, 'GREATER', JIFP, 'JUMP'),
  s('S_INC_LOCAL', ...INC),
  s('S_ADD_UPVALUE_LOCAL', 'GET_UPVALUE', GL, 'ADD', 'SET_UPVALUE', 'POP'), // `n = n + k` on a captured n
  s('S_NIL_NOT_EQUAL_JUMP', 'NIL', 'EQUAL', 'NOT', JIFP), // `if (x != nil)`
  s('S_NIL_EQUAL_JUMP', 'NIL', 'EQUAL', JIFP), // `if (x == nil)`
  s('S_K_MODULO_SET_LOCAL_POP', K, 'MODULO', 'SET_LOCAL', 'POP'),
  s('S_SET_FIELD_LOCAL', GL, GL, 'SET_PROPERTY', 'POP'), // `this.x = x;`
  s('S_SET_FIELD_CONSTANT', GL, K, 'SET_PROPERTY', 'POP'), // `this.count = 0;`
  s('S_LL_LESS_JUMP', GL, GL, 'LESS', JIFP),
  s('S_LK_LESS_JUMP', GL, K, 'LESS', JIFP),
  s('S_LL_GREATER_JUMP', GL, GL, 'GREATER', JIFP),
  s('S_LK_GREATER_JUMP', GL, K, 'GREATER', JIFP),
  s('S_LL_EQUAL_JUMP', GL, GL, 'EQUAL', JIFP),
  s('S_LK_EQUAL_JUMP', GL, K, 'EQUAL', JIFP),
  s('S_GLOBAL_SUB_LOCAL_CONSTANT', 'GET_GLOBAL', GL, K, 'SUBTRACT'), // the callee and argument of `f(n - 1)`
  s('S_LOCAL_LOCAL_PROPERTY', GL, GL, 'GET_PROPERTY'), // `a.x = b.y …`, `a + b.y`
  s('S_RETURN_LOCAL_PROPERTY', GL, 'GET_PROPERTY', 'RETURN'), // a getter, `return this.x;`
  s('S_INVOKE_LOCAL_PROPERTY', GL, 'GET_PROPERTY', 'INVOKE'), // `this.left.check()`
  s('S_LOCAL_PROPERTY_ADD', GL, 'GET_PROPERTY', 'ADD'), // `… + a.x`
  s('S_ADD_LOCAL_CONSTANT', GL, K, 'ADD'),
  s('S_SUBTRACT_LOCAL_CONSTANT', GL, K, 'SUBTRACT'),
  s('S_MODULO_LOCAL_CONSTANT', GL, K, 'MODULO'),
  s('S_ADD_LOCAL_LOCAL', GL, GL, 'ADD'),
  s('S_ADD_SET_LOCAL_POP', 'ADD', 'SET_LOCAL', 'POP'),
  s('S_ADD_ADD_LOCAL', 'ADD', GL, 'ADD'), // `a + b + c`
  s('S_ADD_SET_PROPERTY_POP', 'ADD', 'SET_PROPERTY', 'POP'), // `o.x = a + b;`
  s('S_LESS_JUMP', 'LESS', JIFP),
  s('S_EQUAL_JUMP', 'EQUAL', JIFP),
  s('S_GREATER_JUMP', 'GREATER', JIFP),
  s('S_JUMP_IF_FALSE_POP', JIFP),
  s('S_SET_LOCAL_POP', 'SET_LOCAL', 'POP'),
  s('S_SET_PROPERTY_POP', 'SET_PROPERTY', 'POP'),
  s('S_GET_LOCAL_PROPERTY', GL, 'GET_PROPERTY'),
  s('S_RETURN_LOCAL', GL, 'RETURN'),
  s('S_RETURN_UPVALUE', 'GET_UPVALUE', 'RETURN'),
  s('S_INVOKE_LOCAL', GL, 'INVOKE'), // `zoo.ant()`
  s('S_K_ADD', K, 'ADD'),
  s('S_K_SUBTRACT', K, 'SUBTRACT'),
  s('S_K_MULTIPLY', K, 'MULTIPLY'),
  s('S_K_MODULO', K, 'MODULO'),
  s('S_L_ADD', GL, 'ADD'),
  s('S_L_SUBTRACT', GL, 'SUBTRACT'),
  s('S_L_MULTIPLY', GL, 'MULTIPLY'),
  s('S_GET_LOCAL2', GL, GL),
  s('S_GET_LOCAL_CONSTANT', GL, K),
  s('S_POP_GET_LOCAL', 'POP', GL),
  s('S_POP_JUMP', 'POP', 'JUMP'),
  s('S_POP_LOOP', 'POP', 'LOOP'),
];

/** The first superinstruction's number. */
export const FIRST_SUPERINSTRUCTION = 64;

/** Superinstruction numbers by name: `SUPERINSTRUCTIONS.S_K_ADD`. */
export const SUPERINSTRUCTIONS: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(SUPERINSTRUCTION_LIST.map((sup, i) => [sup.name, FIRST_SUPERINSTRUCTION + i])),
);

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

/** Whether `steps` match the plain code starting at instruction index `k`. */
function matches(code: Int32Array, starts: readonly number[], startIndex: ReadonlyMap<number, number>, k: number, steps: readonly Step[]): boolean {
  for (const step of steps) {
    if (step === 'FOLLOW') {
      const jump = starts[k - 1]!;
      const target = startIndex.get(code[jump + 1]!);
      if (target === undefined) return false;
      k = target;
      continue;
    }
    if (k >= starts.length) return false;
    const pc = starts[k]!;
    if (step === 'JUMP_IF_FALSE_POP') {
      if (code[pc] !== Op.JUMP_IF_FALSE || k + 1 >= starts.length || code[starts[k + 1]!] !== Op.POP) return false;
      if (code[code[pc + 1]!] !== Op.POP) return false;
      k += 2;
      continue;
    }
    if (code[pc] !== Op[step]) return false;
    k++;
  }
  return true;
}

/** A copy of `code` with superinstruction heads written over hot sequences. */
export function fuseSuperinstructions(code: Int32Array): Int32Array {
  const fused = Int32Array.from(code);
  const starts = instructionStarts(code);
  const startIndex = new Map(starts.map((pc, k) => [pc, k]));
  // Every instruction start gets its own head, even inside another sequence: control can arrive
  // there directly (a jump target, a return address), and a head only replaces an opcode word,
  // which no superinstruction reads.
  for (let k = 0; k < starts.length; k++) {
    const found = SUPERINSTRUCTION_LIST.findIndex((sup) => matches(code, starts, startIndex, k, sup.steps));
    if (found >= 0) fused[starts[k]!] = FIRST_SUPERINSTRUCTION + found;
  }
  return fused;
}
