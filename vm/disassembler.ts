/**
 * A clox-style bytecode listing:
 *
 *   == fib ==
 *   0000    2 GET_LOCAL           1 (n)
 *   0002    | CONSTANT            0 '2'
 *   0004    | LESS
 *   0005    | JUMP_IF_FALSE    -> 0012
 *
 * Columns: word offset, source line (`|` when the same as the previous
 * instruction), opcode, then one rendering per operand chosen by the operand's
 * kind in the OPCODES table — so a new opcode disassembles without touching
 * this file. Never throws, even on code the verifier would reject, so it can
 * show what is wrong with a bad file.
 */

import type { FunctionProto, Module } from './module.js';
import { groupDigits } from './bounded-text.js';
import { OPCODES, type OperandKind } from './opcodes.js';

/** One instruction of the structured listing (the playground maps lines ↔ instructions with it). */
export interface DisassembledInstruction {
  /** Word offset of the opcode in the function's code. */
  readonly offset: number;
  /** Source line of the instruction. */
  readonly line: number;
  /** Opcode name, or 'UNKNOWN' for a word that is not an opcode. */
  readonly opcode: string;
  /** The opcode and its rendered operands, e.g. `CONSTANT            2 '1.5'`. */
  readonly text: string;
}

const OPCODE_COLUMN = 16;

/**
 * Strings longer than this are abbreviated where an instruction uses them
 * (`'aaaa…' (1,000,000 chars)`) and printed in full once, in the listing's
 * long-constants section: a listing stays proportional to the file, however
 * often a long constant is used (docs/security.md, output).
 */
export const MAX_INLINE_CONSTANT = 60;

/** Closures capturing more upvalues than this list the first few at each CLOSURE; the function's header lists them all. */
export const MAX_INLINE_CAPTURES = 16;

/** How a constant looks in a listing: numbers as Lox prints them, strings quoted with escapes. */
export function formatConstant(value: number | string | undefined): string {
  if (value === undefined) return '<no such constant>';
  if (typeof value === 'number') return `'${Object.is(value, -0) ? '-0' : String(value)}'`;
  return `'${JSON.stringify(value).slice(1, -1)}'`;
}

/** A constant at the place it is used: in full when short, else its start and its length. */
export function formatConstantUse(value: number | string | undefined): string {
  if (typeof value !== 'string' || value.length <= MAX_INLINE_CONSTANT) return formatConstant(value);
  return `'${JSON.stringify(value.slice(0, MAX_INLINE_CONSTANT)).slice(1, -1)}…' (${groupDigits(value.length)} chars)`;
}

function index(word: number): string {
  return String(word).padStart(4);
}

type LocalInfo = FunctionProto['locals'][number];

/** Each function's debug locals by slot, sorted by start: looking one up is a binary search, not a scan of them all. */
const localsBySlot = new WeakMap<FunctionProto, Map<number, LocalInfo[]>>();

function localsOf(fn: FunctionProto): Map<number, LocalInfo[]> {
  let bySlot = localsBySlot.get(fn);
  if (bySlot === undefined) {
    bySlot = new Map();
    for (const local of fn.locals) {
      const list = bySlot.get(local.slot);
      if (list === undefined) bySlot.set(local.slot, [local]);
      else list.push(local);
    }
    for (const list of bySlot.values()) list.sort((a, b) => a.startPc - b.startPc);
    localsBySlot.set(fn, bySlot);
  }
  return bySlot;
}

/** The debug name of the local in `slot` at `pc`, when the module kept one (the latest-starting scope that covers pc). */
function localName(fn: FunctionProto, slot: number, pc: number): string | undefined {
  const list = localsOf(fn).get(slot);
  if (list === undefined) return undefined;
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.startPc <= pc) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const local = found >= 0 ? list[found]! : undefined;
  return local !== undefined && pc < local.endPc ? local.name : undefined;
}

interface OperandContext {
  readonly module: Module;
  readonly fn: FunctionProto;
  readonly offset: number;
}

function constantOperand(word: number, { module }: OperandContext): string {
  return `${index(word)} ${formatConstantUse(module.constants[word])}`;
}

function localOperand(word: number, { fn, offset }: OperandContext): string {
  const name = localName(fn, word, offset);
  return name === undefined ? index(word) : `${index(word)} (${name})`;
}

function plainOperand(word: number): string {
  return index(word);
}

function globalOperand(word: number, { module }: OperandContext): string {
  const name = module.globals[word];
  return `${index(word)} ${name === undefined ? '<no such global>' : formatConstantUse(name)}`;
}

function functionOperand(word: number, { module }: OperandContext): string {
  const target = module.functions[word];
  if (target === undefined) return `${index(word)} <no such function>`;
  const label = target.name === '' ? '<script>' : `<fn ${boundedName(target.name)}>`;
  const captures = captureList(target, MAX_INLINE_CAPTURES);
  return `${index(word)} ${label}${captures === '' ? '' : ` [${captures}]`}`;
}

function hostOperand(word: number, { module }: OperandContext): string {
  const host = module.hostImports[word];
  return `${index(word)} ${host === undefined ? '<no such host function>' : `<host ${boundedName(host.name)}>`}`;
}

/** A function or host name at a use: long ones (only forged files have them) abbreviated. */
function boundedName(name: string): string {
  return name.length <= MAX_INLINE_CONSTANT ? name : `${name.slice(0, MAX_INLINE_CONSTANT)}… (${groupDigits(name.length)} chars)`;
}

/** `local 0, upvalue 1, …`: at most `max` captures, then how many there are in all. */
function captureList(fn: FunctionProto, max: number): string {
  const shown = fn.upvalues.slice(0, max).map((u) => `${u.isLocal ? 'local' : 'upvalue'} ${u.index}`);
  if (fn.upvalues.length > max) shown.push(`… ${fn.upvalues.length} captures`);
  return shown.join(', ');
}

function jumpOperand(word: number): string {
  return `-> ${String(word).padStart(4, '0')}`;
}

const OPERAND_RENDERERS: Record<OperandKind, (word: number, context: OperandContext) => string> = {
  constant: constantOperand,
  name: constantOperand,
  local: localOperand,
  upvalue: plainOperand,
  global: globalOperand,
  function: functionOperand,
  host: hostOperand,
  jump: jumpOperand,
  count: plainOperand,
};

function argumentCount(n: number): string {
  return `(${n} ${n === 1 ? 'arg' : 'args'})`;
}

function simpleInstruction(name: string): string {
  return name;
}

function unknownInstruction(word: number): string {
  return `UNKNOWN ${word}`;
}

/** Disassemble the instruction at `offset`; returns it and the offset of the next one. */
export function disassembleInstruction(
  module: Module,
  fn: FunctionProto,
  offset: number,
): { instruction: DisassembledInstruction; next: number } {
  const word = fn.code[offset]!;
  const line = fn.lines[offset] ?? 0;
  const info = OPCODES[word];
  if (info === undefined) {
    return { instruction: { offset, line, opcode: 'UNKNOWN', text: unknownInstruction(word) }, next: offset + 1 };
  }
  if (info.operands.length === 0) {
    return { instruction: { offset, line, opcode: info.name, text: simpleInstruction(info.name) }, next: offset + 1 };
  }
  const context: OperandContext = { module, fn, offset };
  const rendered = info.operands.map((kind, i) => {
    const operand = fn.code[offset + 1 + i];
    if (operand === undefined) return '<missing operand>';
    // Beside a method or host name, a bare number would read as another index (clox prints "(2 args)").
    if (kind === 'count' && info.operands.length > 1) return argumentCount(operand);
    return OPERAND_RENDERERS[kind](operand, context);
  });
  const text = `${info.name.padEnd(OPCODE_COLUMN)} ${rendered.join(' ')}`;
  const next = Math.min(offset + 1 + info.operands.length, fn.code.length);
  return { instruction: { offset, line, opcode: info.name, text }, next };
}

/** Structured listing of functions[index]; [] when there is no such function. */
export function disassembleFunction(module: Module, functionIndex: number): DisassembledInstruction[] {
  const fn = module.functions[functionIndex];
  if (fn === undefined) return [];
  const instructions: DisassembledInstruction[] = [];
  for (let offset = 0; offset < fn.code.length; ) {
    const { instruction, next } = disassembleInstruction(module, fn, offset);
    instructions.push(instruction);
    offset = next;
  }
  return instructions;
}

export function functionTitle(fn: FunctionProto): string {
  return fn.name === '' ? '<script>' : boundedName(fn.name);
}

/** The offset and line columns of one listing line. */
function listingLine(instruction: DisassembledInstruction, previousLine: number | null): string {
  const offset = String(instruction.offset).padStart(4, '0');
  const line = instruction.line === previousLine ? '   |' : String(instruction.line).padStart(4);
  return `${offset} ${line} ${instruction.text}`;
}

/** The listing of one function: a `== name ==` header, then one line per instruction. */
export function disassembleFunctionText(module: Module, functionIndex: number): string {
  const fn = module.functions[functionIndex];
  if (fn === undefined) return '';
  const lines = [`== ${functionTitle(fn)} ==`];
  // A closure with many captures lists them all once, here; each CLOSURE shows the first few.
  if (fn.upvalues.length > MAX_INLINE_CAPTURES) lines.push(`     captures ${captureList(fn, Infinity)}`);
  let previousLine: number | null = null;
  for (const instruction of disassembleFunction(module, functionIndex)) {
    lines.push(listingLine(instruction, previousLine));
    previousLine = instruction.line;
  }
  return lines.join('\n');
}

/** The long-constants section: each string constant too long to show at its uses, once in full. */
export function longConstantsText(module: Module): string {
  const lines: string[] = [];
  module.constants.forEach((value, i) => {
    if (typeof value === 'string' && value.length > MAX_INLINE_CONSTANT) lines.push(`${index(i)} ${formatConstant(value)}`);
  });
  return lines.length === 0 ? '' : ['-- long constants, in full (cut where they are used) --', ...lines].join('\n');
}

/** The listing of every function in the module, script first; long constants once, at the end. */
export function disassemble(module: Module): string {
  const parts = module.functions.map((_, i) => disassembleFunctionText(module, i));
  const constants = longConstantsText(module);
  if (constants !== '') parts.push(constants);
  return parts.join('\n\n') + '\n';
}
