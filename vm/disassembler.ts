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

/** How a constant looks in a listing: numbers as Lox prints them, strings quoted with escapes. */
export function formatConstant(value: number | string | undefined): string {
  if (value === undefined) return '<no such constant>';
  if (typeof value === 'number') return `'${Object.is(value, -0) ? '-0' : String(value)}'`;
  return `'${JSON.stringify(value).slice(1, -1)}'`;
}

function index(word: number): string {
  return String(word).padStart(4);
}

/** The debug name of the local in `slot` at `pc`, when the module kept one. */
function localName(fn: FunctionProto, slot: number, pc: number): string | undefined {
  return fn.locals.find((l) => l.slot === slot && l.startPc <= pc && pc < l.endPc)?.name;
}

interface OperandContext {
  readonly module: Module;
  readonly fn: FunctionProto;
  readonly offset: number;
}

function constantOperand(word: number, { module }: OperandContext): string {
  return `${index(word)} ${formatConstant(module.constants[word])}`;
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
  return `${index(word)} ${name === undefined ? '<no such global>' : `'${name}'`}`;
}

function functionOperand(word: number, { module }: OperandContext): string {
  const target = module.functions[word];
  if (target === undefined) return `${index(word)} <no such function>`;
  const captures = target.upvalues.map((u) => `${u.isLocal ? 'local' : 'upvalue'} ${u.index}`);
  const label = target.name === '' ? '<script>' : `<fn ${target.name}>`;
  return `${index(word)} ${label}${captures.length > 0 ? ` [${captures.join(', ')}]` : ''}`;
}

function hostOperand(word: number, { module }: OperandContext): string {
  const host = module.hostImports[word];
  return `${index(word)} ${host === undefined ? '<no such host function>' : `<host ${host.name}>`}`;
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
  return fn.name === '' ? '<script>' : fn.name;
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
  let previousLine: number | null = null;
  for (const instruction of disassembleFunction(module, functionIndex)) {
    lines.push(listingLine(instruction, previousLine));
    previousLine = instruction.line;
  }
  return lines.join('\n');
}

/** The listing of every function in the module, script first. */
export function disassemble(module: Module): string {
  return module.functions.map((_, i) => disassembleFunctionText(module, i)).join('\n\n') + '\n';
}
