/**
 * The instruction set, defined once. The emitter, the VM, the disassembler,
 * the loader and the verifier all read this table (as Wren's wren_opcodes.h).
 *
 * Code is an Int32Array of words: one word for the opcode, then one word per
 * operand. Jump operands are absolute word offsets inside the same function.
 *
 * `stack` is the net stack effect when the instruction falls through. It is a
 * number, or a function of the operands for variable effects (calls, lists).
 * `branchStack` is the net effect when a branching instruction jumps.
 * Operand kinds tell the verifier which table an index points into.
 */

export type OperandKind =
  | 'constant' // index into module.constants
  | 'name' // index into module.constants that must be a string (property / method / class name)
  | 'local' // frame slot
  | 'upvalue' // index into the closure's upvalues
  | 'global' // index into module.globals
  | 'function' // index into module.functions
  | 'host' // index into module.hostImports
  | 'jump' // absolute target offset in this function
  | 'count'; // an argument / element count

type StackEffect = number | ((operands: readonly number[]) => number);

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

const op = (
  name: string,
  operands: readonly OperandKind[],
  pops: StackEffect,
  stack: StackEffect,
  doc: string,
  extra: Partial<Pick<OpcodeInfo, 'branchStack' | 'terminal'>> = {},
): OpcodeInfo => ({ name, operands, pops, stack, doc, ...extra });

/** The table. Order defines the numeric opcode; append new rows at the end of a group only before a format version bump. */
export const OPCODES = [
  op('CONSTANT', ['constant'], 0, +1, 'push constants[k]'),
  op('NIL', [], 0, +1, 'push nil'),
  op('TRUE', [], 0, +1, 'push true'),
  op('FALSE', [], 0, +1, 'push false'),
  op('POP', [], 1, -1, 'discard the top value'),
  op('DUP', [], 1, +1, 'push a copy of the top value'),
  op('DUP2', [], 2, +2, 'push copies of the top two values (a b -> a b a b)'),
  op('GET_LOCAL', ['local'], 0, +1, 'push frame slot'),
  op('SET_LOCAL', ['local'], 1, 0, 'store top into frame slot (top stays)'),
  op('GET_GLOBAL', ['global'], 0, +1, "push global; 'Undefined variable' if never defined"),
  op('DEFINE_GLOBAL', ['global'], 1, -1, 'pop into global slot, defining it'),
  op('SET_GLOBAL', ['global'], 1, 0, "store top into a defined global (top stays); 'Undefined variable' otherwise"),
  op('GET_UPVALUE', ['upvalue'], 0, +1, 'push captured variable'),
  op('SET_UPVALUE', ['upvalue'], 1, 0, 'store top into captured variable (top stays)'),
  op('GET_PROPERTY', ['name'], 1, 0, 'replace object with its field or bound method'),
  op('SET_PROPERTY', ['name'], 2, -1, 'object value -> value, storing the field'),
  op('GET_SUPER', ['name'], 2, -1, 'instance superclass -> bound super method'),
  op('GET_INDEX', [], 2, -1, 'list index -> element, or map key -> value'),
  op('SET_INDEX', [], 3, -2, 'list index value -> value, storing the element (or map key value -> value, storing the entry)'),
  op('EQUAL', [], 2, -1, 'a b -> a == b'),
  op('GREATER', [], 2, -1, 'a b -> a > b (numbers)'),
  op('LESS', [], 2, -1, 'a b -> a < b (numbers)'),
  op('ADD', [], 2, -1, 'a b -> a + b (numbers, or two strings)'),
  op('SUBTRACT', [], 2, -1, 'a b -> a - b'),
  op('MULTIPLY', [], 2, -1, 'a b -> a * b'),
  op('DIVIDE', [], 2, -1, 'a b -> a / b'),
  op('MODULO', [], 2, -1, 'a b -> a % b (sign of the dividend, as JS and C fmod)'),
  op('NOT', [], 1, 0, 'a -> !truthy(a)'),
  op('NEGATE', [], 1, 0, 'a -> -a (numbers)'),
  op('PRINT', [], 1, -1, 'pop and print'),
  op('JUMP', ['jump'], 0, 0, 'ip = target', { terminal: true, branchStack: 0 }),
  op('JUMP_IF_FALSE', ['jump'], 1, 0, 'if top is falsey, ip = target (top stays)', { branchStack: 0 }),
  op('LOOP', ['jump'], 0, 0, 'ip = target (a back edge: charges fuel)', { terminal: true, branchStack: 0 }),
  op('CALL', ['count'], (o) => o[0]! + 1, (o) => -o[0]!, 'callee args… -> result (charges fuel)'),
  op('INVOKE', ['name', 'count'], (o) => o[1]! + 1, (o) => -o[1]!, 'receiver args… -> receiver.name(args…)'),
  op('SUPER_INVOKE', ['name', 'count'], (o) => o[1]! + 2, (o) => -o[1]! - 1, 'this args… superclass -> super.name(args…)'),
  op('CALL_HOST', ['host', 'count'], (o) => o[1]!, (o) => 1 - o[1]!, 'args… -> hostImports[h](args…)'),
  op('HOST_FUNCTION', ['host'], 0, +1, 'push host function hostImports[h] as a value'),
  op('CLOSURE', ['function'], 0, +1, "push a closure over functions[f], capturing the upvalues its prototype lists"),
  op('CLOSE_UPVALUE', [], 1, -1, 'close the upvalue for the top slot and pop it'),
  op('RETURN', [], 1, 0, 'return top to the caller', { terminal: true }),
  op('CLASS', ['name'], 0, +1, 'push a new class'),
  op('INHERIT', [], 2, -1, 'superclass subclass -> superclass (copies methods down)'),
  op('METHOD', ['name'], 2, -1, 'class closure -> class (adds the method)'),
  op('BUILD_LIST', ['count'], (o) => o[0]!, (o) => 1 - o[0]!, 'elements… -> list'),
  op(
    'FOR_ITER',
    ['local', 'jump'],
    0,
    +1,
    'locals[s] is a list (a map is replaced by a list of its keys at index 0) and locals[s+1] an index: push list[index] and advance, or jump to target when done',
    { branchStack: 0 },
  ),
  // Internal: the debugger patches it over the first instruction of a line while attached (vm/debugger.ts).
  // It never appears in a compiled module; the verifier rejects it.
  op('BREAK', [], 0, 0, 'debugger breakpoint: pause, or run the instruction it replaced'),
  // Added after BREAK so every older opcode keeps its number: .spb files of older versions still load.
  op('BUILD_MAP', ['count'], (o) => 2 * o[0]!, (o) => 1 - 2 * o[0]!, 'key value … (count pairs) -> map; a later duplicate key wins'),
  op('TEMPLATE', ['count'], (o) => o[0]!, (o) => 1 - o[0]!, 'parts… -> one string, each part converted as str() converts it'),
] as const satisfies readonly OpcodeInfo[];

type OpcodeName = (typeof OPCODES)[number]['name'];

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
