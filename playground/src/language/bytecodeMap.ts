/**
 * The bytecode panel's model: one row per instruction of every function, with
 * the source line that produced it, and the two-way map between source lines
 * and rows that Compiler Explorer-style linking needs. Rows are cheap (offsets
 * and lines only); the instruction text comes from the VM's own disassembler
 * (vm/disassembler.ts) when a row is drawn, so a long spell costs little.
 */
import type { FunctionProto, Module } from '../../../vm/module.js';
import { disassembleInstruction } from '../../../vm/disassembler.js';
import { OPCODES, instructionSize } from '../../../vm/opcodes.js';

export interface HeaderRow {
  readonly kind: 'header';
  readonly functionIndex: number;
  readonly text: string;
}

export interface InstructionRow {
  readonly kind: 'instruction';
  readonly functionIndex: number;
  readonly offset: number;
  readonly line: number;
  readonly opcode: string;
}

export type ListingRow = HeaderRow | InstructionRow;

export function functionLabel(fn: FunctionProto, index: number): string {
  if (index === 0 || fn.name === '') return '<script>';
  return `<${fn.kind === 'spell' ? 'spell' : 'fn'} ${fn.name}>`;
}

function instructionRows(fn: FunctionProto, functionIndex: number, out: ListingRow[]): void {
  const code = fn.code;
  for (let offset = 0; offset < code.length; ) {
    const op = code[offset]!;
    const info = OPCODES[op];
    out.push({ kind: 'instruction', functionIndex, offset, line: fn.lines[offset] ?? 0, opcode: info ? info.name : 'UNKNOWN' });
    offset += info ? instructionSize(op) : 1;
  }
}

/** Every function in order, each introduced by a header row. */
export function buildListing(module: Module): ListingRow[] {
  const rows: ListingRow[] = [];
  module.functions.forEach((fn, i) => {
    rows.push({ kind: 'header', functionIndex: i, text: `== ${functionLabel(fn, i)} ==` });
    instructionRows(fn, i, rows);
  });
  return rows;
}

/** The opcode and its operands, rendered by the VM's disassembler. */
export function instructionText(module: Module, row: InstructionRow): string {
  const fn = module.functions[row.functionIndex];
  return fn ? disassembleInstruction(module, fn, row.offset).instruction.text : row.opcode;
}

/** `0004  NAME  operands` as the panel shows it. */
export function rowText(module: Module, row: ListingRow): string {
  if (row.kind === 'header') return row.text;
  return `${String(row.offset).padStart(4, '0')}  ${instructionText(module, row)}`;
}

/** Source line ↔ listing rows, both ways. */
export class LineInstructionMap {
  private readonly rowsByLine = new Map<number, number[]>();

  constructor(readonly rows: readonly ListingRow[]) {
    rows.forEach((row, i) => {
      if (row.kind !== 'instruction' || row.line <= 0) return;
      const list = this.rowsByLine.get(row.line);
      if (list) list.push(i);
      else this.rowsByLine.set(row.line, [i]);
    });
  }

  rowsForLine(line: number): readonly number[] {
    return this.rowsByLine.get(line) ?? [];
  }

  lineForRow(rowIndex: number): number | null {
    const row = this.rows[rowIndex];
    return row && row.kind === 'instruction' && row.line > 0 ? row.line : null;
  }

  /** The row of a given function and code offset (for the debugger's current instruction). */
  /** The row of the instruction holding `offset` (its first word or an operand: an outer frame's pc is its call's last word). */
  rowFor(functionIndex: number, offset: number): number | null {
    // A function's rows come in offset order: the last one starting at or before `offset` holds it.
    let found: number | null = null;
    this.rows.forEach((r, i) => {
      if (r.kind === 'instruction' && r.functionIndex === functionIndex && r.offset <= offset) found = i;
    });
    return found;
  }

  /** Source lines that produced code, ascending. */
  linesWithCode(): number[] {
    return [...this.rowsByLine.keys()].sort((a, b) => a - b);
  }
}

/** Colour slot for a source line; consecutive code lines get different colours. */
export function colourIndexForLine(line: number, paletteSize: number): number {
  return ((line % paletteSize) + paletteSize) % paletteSize;
}
