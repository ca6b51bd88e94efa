/**
 * Every instruction, in opcode order: an instruction's opcode number is its
 * index here. The order is the bytecode format: append new instructions at the
 * end only (older .spb files keep loading), as BUILD_MAP and TEMPLATE were.
 */

import { ARITHMETIC_INSTRUCTIONS } from './arithmetic.js';
import { CALL_CONTINUATIONS, CALL_INSTRUCTIONS } from './calls.js';
import { BUILD_LIST, BUILD_MAP, INDEX_INSTRUCTIONS, PRINT, TEMPLATE } from './collections.js';
import { CONTROL_INSTRUCTIONS, FOR_ITER, JUMP_IF_FALSE_POP } from './control.js';
import { BREAK } from './debugging.js';
import type { Instruction } from './define.js';
import { OBJECT_INSTRUCTIONS } from './objects.js';
import { VALUE_INSTRUCTIONS } from './values.js';

const [GET_PROPERTY, SET_PROPERTY, GET_SUPER, CLASS, INHERIT, METHOD] = OBJECT_INSTRUCTIONS;
const [CALL, INVOKE, SUPER_INVOKE, CALL_HOST, HOST_FUNCTION, CLOSURE, CLOSE_UPVALUE, RETURN] = CALL_INSTRUCTIONS;

export const INSTRUCTIONS = [
  ...VALUE_INSTRUCTIONS, // CONSTANT … SET_UPVALUE (0–13)
  GET_PROPERTY,
  SET_PROPERTY,
  GET_SUPER,
  ...INDEX_INSTRUCTIONS, // GET_INDEX, SET_INDEX (17, 18)
  ...ARITHMETIC_INSTRUCTIONS, // EQUAL … NEGATE (19–28)
  PRINT,
  ...CONTROL_INSTRUCTIONS, // JUMP, JUMP_IF_FALSE, LOOP (30–32)
  CALL,
  INVOKE,
  SUPER_INVOKE,
  CALL_HOST,
  HOST_FUNCTION,
  CLOSURE,
  CLOSE_UPVALUE,
  RETURN,
  CLASS,
  INHERIT,
  METHOD,
  BUILD_LIST,
  FOR_ITER,
  BREAK,
  BUILD_MAP,
  TEMPLATE,
] as const satisfies readonly Instruction[];

/** Definitions the interpreter runs that are not in bytecode: call continuations (negative numbers) and micro-instructions. */
export const INTERNAL_INSTRUCTIONS = { continuations: CALL_CONTINUATIONS, microInstructions: [JUMP_IF_FALSE_POP] } as const;

/** The interpreter's numbers for the call continuations (never in bytecode). */
export const CONTINUATION_OPCODES: Readonly<Record<string, number>> = { PUSH_FRAME: -1, CALL_VALUE: -2 };
