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
  /** GET_LOCAL a; GET_LOCAL b; LESS; JUMP_IF_FALSE t; POP (numbers); a JUMP right after is followed too */
  S_LL_LESS_JUMP: 80,
  /** GET_LOCAL a; CONSTANT k; LESS; JUMP_IF_FALSE t; POP (numbers); a JUMP right after is followed too */
  S_LK_LESS_JUMP: 81,
  /** GET_LOCAL a; GET_LOCAL b; GREATER; JUMP_IF_FALSE t; POP (numbers); a JUMP right after is followed too */
  S_LL_GREATER_JUMP: 82,
  /** GET_LOCAL a; CONSTANT k; GREATER; JUMP_IF_FALSE t; POP (numbers); a JUMP right after is followed too */
  S_LK_GREATER_JUMP: 83,
  /** GET_LOCAL a; GET_LOCAL b; EQUAL; JUMP_IF_FALSE t; POP (no host objects, no long strings) */
  S_LL_EQUAL_JUMP: 84,
  /** GET_LOCAL a; CONSTANT k; EQUAL; JUMP_IF_FALSE t; POP (no host objects, no long strings) */
  S_LK_EQUAL_JUMP: 85,
  /** GET_LOCAL a; GET_LOCAL b; EQUAL; NOT; JUMP_IF_FALSE t; POP (no host objects, no long strings) */
  S_LL_NOT_EQUAL_JUMP: 86,
  /** GET_LOCAL a; CONSTANT k; EQUAL; NOT; JUMP_IF_FALSE t; POP (no host objects, no long strings) */
  S_LK_NOT_EQUAL_JUMP: 87,
  /** GET_LOCAL a; CONSTANT k; ADD; SET_LOCAL c; POP (numbers): `c = a + k` */
  S_INC_LOCAL: 88,
  /** GET_LOCAL a; CONSTANT k; ADD; SET_LOCAL c; POP; LOOP t (numbers): a for loop's increment */
  S_INC_LOCAL_LOOP: 89,
  /** LOOP t, where t holds S_INC_LOCAL_LOOP: the end of a for loop's body, its increment and back edge */
  S_LOOP_INC_LOOP: 90,
  /** CONSTANT k; ADD (numbers) */
  S_K_ADD: 91,
  /** CONSTANT k; SUBTRACT (numbers) */
  S_K_SUBTRACT: 92,
  /** CONSTANT k; MULTIPLY (numbers) */
  S_K_MULTIPLY: 93,
  /** CONSTANT k; MODULO (numbers) */
  S_K_MODULO: 94,
  /** GET_LOCAL a; ADD (numbers) */
  S_L_ADD: 95,
  /** GET_LOCAL a; SUBTRACT (numbers) */
  S_L_SUBTRACT: 96,
  /** GET_LOCAL a; MULTIPLY (numbers) */
  S_L_MULTIPLY: 97,
  /** GET_LOCAL a; CONSTANT k; ADD; SET_LOCAL c; POP; JUMP t (numbers): `c = a + k` ending an if's branch */
  S_INC_LOCAL_JUMP: 98,
  /** GET_LOCAL a; GET_LOCAL b; GET_PROPERTY n (instance field of b): `a.x = b.y …`, `a + b.y` */
  S_LOCAL_LOCAL_PROPERTY: 99,
  /** GET_LOCAL a; CONSTANT k; MODULO (numbers) */
  S_MODULO_LOCAL_CONSTANT: 100,
  /** ADD; SET_LOCAL c; POP (numbers) */
  S_ADD_SET_LOCAL_POP: 101,
  /** CONSTANT k; MODULO; SET_LOCAL c; POP (numbers) */
  S_K_MODULO_SET_LOCAL_POP: 102,
  /** ADD; SET_PROPERTY n; POP (numbers, instance receivers): `o.x = a + b;` */
  S_ADD_SET_PROPERTY_POP: 103,
  /** GET_LOCAL a; GET_PROPERTY n; ADD (numbers, instance field): `… + a.x` */
  S_LOCAL_PROPERTY_ADD: 104,
  /** GET_UPVALUE u; GET_LOCAL a; ADD; SET_UPVALUE v; POP (numbers): `n = n + k` on a captured n */
  S_ADD_UPVALUE_LOCAL: 105,
  /** GET_UPVALUE u; RETURN */
  S_RETURN_UPVALUE: 106,
  /** GET_LOCAL a; GET_PROPERTY n; RETURN (instance field): a getter, `return this.x;` */
  S_RETURN_LOCAL_PROPERTY: 107,
  /** GET_LOCAL a; GET_LOCAL a; GET_PROPERTY n; CONSTANT k; ADD; SET_PROPERTY n; POP (numbers, existing field): `this.x = this.x + k;` */
  S_INC_FIELD: 108,
  /** GET_LOCAL a; INVOKE n argc (instance receiver, cached method): `zoo.ant()` */
  S_INVOKE_LOCAL: 109,
  /** GET_GLOBAL g; GET_LOCAL a; CONSTANT k; SUBTRACT (defined global, numbers): the callee and argument of `f(n - 1)` */
  S_GLOBAL_SUB_LOCAL_CONSTANT: 110,
  /** GET_LOCAL a; GET_LOCAL b; SET_PROPERTY n; POP (instance, cached shape): `this.x = x;` */
  S_SET_FIELD_LOCAL: 111,
  /** GET_LOCAL a; CONSTANT k; SET_PROPERTY n; POP (instance, cached shape): `this.count = 0;` */
  S_SET_FIELD_CONSTANT: 112,
  /** NIL; EQUAL; JUMP_IF_FALSE t; POP, where t holds a POP: `if (x == nil)` */
  S_NIL_EQUAL_JUMP: 113,
  /** NIL; EQUAL; NOT; JUMP_IF_FALSE t; POP, where t holds a POP: `if (x != nil)` */
  S_NIL_NOT_EQUAL_JUMP: 114,
  /** POP; LOOP t, where t holds S_INC_LOCAL_LOOP: a for loop's body ending with a block's local popped */
  S_POP_LOOP_INC_LOOP: 115,
  /** GET_LOCAL a; GET_PROPERTY n; INVOKE m argc (instance field, cached method): `this.left.check()` */
  S_INVOKE_LOCAL_PROPERTY: 116,
  /** ADD; GET_LOCAL c; ADD (numbers): `a + b + c` */
  S_ADD_ADD_LOCAL: 117,
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

const GL = Op.GET_LOCAL;
const K = Op.CONSTANT;
const JIF = Op.JUMP_IF_FALSE;

/**
 * Sequences and the head that replaces their first opcode, longest first. A
 * JUMP_IF_FALSE inside a sequence must target a POP: the superinstruction
 * never pushes the condition, so it jumps past that POP.
 */
const PATTERNS: readonly (readonly [head: number, ops: readonly number[]])[] = [
  [S.S_INC_LOCAL_LOOP, [GL, K, Op.ADD, Op.SET_LOCAL, Op.POP, Op.LOOP]],
  [S.S_LL_NOT_EQUAL_JUMP, [GL, GL, Op.EQUAL, Op.NOT, JIF, Op.POP]],
  [S.S_LK_NOT_EQUAL_JUMP, [GL, K, Op.EQUAL, Op.NOT, JIF, Op.POP]],
  [S.S_INC_FIELD, [GL, GL, Op.GET_PROPERTY, K, Op.ADD, Op.SET_PROPERTY, Op.POP]],
  [S.S_INC_LOCAL_JUMP, [GL, K, Op.ADD, Op.SET_LOCAL, Op.POP, Op.JUMP]],
  [S.S_NIL_NOT_EQUAL_JUMP, [Op.NIL, Op.EQUAL, Op.NOT, JIF, Op.POP]],
  [S.S_NIL_EQUAL_JUMP, [Op.NIL, Op.EQUAL, JIF, Op.POP]],
  [S.S_INC_LOCAL, [GL, K, Op.ADD, Op.SET_LOCAL, Op.POP]],
  [S.S_ADD_UPVALUE_LOCAL, [Op.GET_UPVALUE, GL, Op.ADD, Op.SET_UPVALUE, Op.POP]],
  [S.S_K_MODULO_SET_LOCAL_POP, [K, Op.MODULO, Op.SET_LOCAL, Op.POP]],
  [S.S_LOCAL_LOCAL_PROPERTY, [GL, GL, Op.GET_PROPERTY]],
  [S.S_SET_FIELD_LOCAL, [GL, GL, Op.SET_PROPERTY, Op.POP]],
  [S.S_SET_FIELD_CONSTANT, [GL, K, Op.SET_PROPERTY, Op.POP]],
  [S.S_RETURN_LOCAL_PROPERTY, [GL, Op.GET_PROPERTY, Op.RETURN]],
  [S.S_INVOKE_LOCAL_PROPERTY, [GL, Op.GET_PROPERTY, Op.INVOKE]],
  [S.S_LL_LESS_JUMP, [GL, GL, Op.LESS, JIF, Op.POP]],
  [S.S_LK_LESS_JUMP, [GL, K, Op.LESS, JIF, Op.POP]],
  [S.S_LL_GREATER_JUMP, [GL, GL, Op.GREATER, JIF, Op.POP]],
  [S.S_LK_GREATER_JUMP, [GL, K, Op.GREATER, JIF, Op.POP]],
  [S.S_LL_EQUAL_JUMP, [GL, GL, Op.EQUAL, JIF, Op.POP]],
  [S.S_LK_EQUAL_JUMP, [GL, K, Op.EQUAL, JIF, Op.POP]],
  [S.S_GLOBAL_SUB_LOCAL_CONSTANT, [Op.GET_GLOBAL, GL, K, Op.SUBTRACT]],
  [S.S_ADD_LOCAL_CONSTANT, [GL, K, Op.ADD]],
  [S.S_SUBTRACT_LOCAL_CONSTANT, [GL, K, Op.SUBTRACT]],
  [S.S_ADD_LOCAL_LOCAL, [GL, GL, Op.ADD]],
  [S.S_MODULO_LOCAL_CONSTANT, [GL, K, Op.MODULO]],
  [S.S_ADD_SET_LOCAL_POP, [Op.ADD, Op.SET_LOCAL, Op.POP]],
  [S.S_ADD_ADD_LOCAL, [Op.ADD, GL, Op.ADD]],
  [S.S_ADD_SET_PROPERTY_POP, [Op.ADD, Op.SET_PROPERTY, Op.POP]],
  [S.S_LOCAL_PROPERTY_ADD, [GL, Op.GET_PROPERTY, Op.ADD]],
  [S.S_LESS_JUMP, [Op.LESS, JIF, Op.POP]],
  [S.S_EQUAL_JUMP, [Op.EQUAL, JIF, Op.POP]],
  [S.S_GREATER_JUMP, [Op.GREATER, JIF, Op.POP]],
  [S.S_JUMP_IF_FALSE_POP, [JIF, Op.POP]],
  [S.S_SET_LOCAL_POP, [Op.SET_LOCAL, Op.POP]],
  [S.S_SET_PROPERTY_POP, [Op.SET_PROPERTY, Op.POP]],
  [S.S_GET_LOCAL_PROPERTY, [GL, Op.GET_PROPERTY]],
  [S.S_RETURN_LOCAL, [GL, Op.RETURN]],
  [S.S_RETURN_UPVALUE, [Op.GET_UPVALUE, Op.RETURN]],
  [S.S_K_ADD, [K, Op.ADD]],
  [S.S_K_SUBTRACT, [K, Op.SUBTRACT]],
  [S.S_K_MULTIPLY, [K, Op.MULTIPLY]],
  [S.S_K_MODULO, [K, Op.MODULO]],
  [S.S_L_ADD, [GL, Op.ADD]],
  [S.S_L_SUBTRACT, [GL, Op.SUBTRACT]],
  [S.S_L_MULTIPLY, [GL, Op.MULTIPLY]],
  [S.S_INVOKE_LOCAL, [GL, Op.INVOKE]],
  [S.S_GET_LOCAL2, [GL, GL]],
  [S.S_GET_LOCAL_CONSTANT, [GL, K]],
  [S.S_POP_GET_LOCAL, [Op.POP, GL]],
  [S.S_POP_JUMP, [Op.POP, Op.JUMP]],
  [S.S_POP_LOOP, [Op.POP, Op.LOOP]],
];

/** A copy of `code` with superinstruction heads written over hot sequences. */
export function fuseSuperinstructions(code: Int32Array): Int32Array {
  const fused = Int32Array.from(code);
  const starts = instructionStarts(code);
  const matches = (k: number, ops: readonly number[]): boolean => {
    if (k + ops.length > starts.length) return false;
    for (let i = 0; i < ops.length; i++) {
      const pc = starts[k + i]!;
      if (code[pc] !== ops[i]) return false;
      if (ops[i] === JIF && code[code[pc + 1]!] !== Op.POP) return false;
    }
    return true;
  };
  // Every instruction start gets its own head, even inside another sequence: control can arrive
  // there directly (a jump target, the fall-through of a slow path), and a head only replaces
  // an opcode word, which no superinstruction reads.
  for (let k = 0; k < starts.length; k++) {
    for (const [head, ops] of PATTERNS) {
      if (matches(k, ops)) {
        fused[starts[k]!] = head;
        break;
      }
    }
  }
  // Back edges into a for loop's increment run it and the loop's own back edge in one go.
  for (const pc of starts) {
    if (code[pc] === Op.LOOP && fused[pc] === Op.LOOP && fused[code[pc + 1]!] === S.S_INC_LOCAL_LOOP) {
      fused[pc] = S.S_LOOP_INC_LOOP;
    }
    if (fused[pc] === S.S_POP_LOOP && fused[code[pc + 2]!] === S.S_INC_LOCAL_LOOP) {
      fused[pc] = S.S_POP_LOOP_INC_LOOP;
    }
  }
  return fused;
}
