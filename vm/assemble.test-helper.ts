/**
 * A tiny assembler for tests: builds Modules by hand from opcode names, so the
 * bytecode tools can be tested without the compiler.
 *
 * Code items:
 *   'CONSTANT', 0      an opcode name, then its operand words
 *   'loop:'            defines a label at the current offset
 *   '@loop'            an operand word: the offset of that label
 *   '#12'              the source line of the following words
 */

import type { FunctionKind, FunctionProto, HostImport, LocalVariableInfo, Module, SpellEntry, UpvalueDescriptor } from './module.js';
import { Op } from './opcodes.js';

export type AsmItem = string | number;

export function assembleCode(items: readonly AsmItem[]): { code: Int32Array; lines: Int32Array } {
  const labels = new Map<string, number>();
  let offset = 0;
  for (const item of items) {
    if (typeof item === 'string' && item.endsWith(':')) labels.set(item.slice(0, -1), offset);
    else if (typeof item === 'number' || !item.startsWith('#')) offset++;
  }
  const code: number[] = [];
  const lines: number[] = [];
  let line = 1;
  for (const item of items) {
    if (typeof item === 'number') {
      code.push(item);
    } else if (item.endsWith(':')) {
      continue;
    } else if (item.startsWith('#')) {
      line = Number(item.slice(1));
      continue;
    } else if (item.startsWith('@')) {
      const target = labels.get(item.slice(1));
      if (target === undefined) throw new Error(`assemble: unknown label ${item}`);
      code.push(target);
    } else {
      const opcode = (Op as Record<string, number>)[item];
      if (opcode === undefined) throw new Error(`assemble: unknown opcode ${item}`);
      code.push(opcode);
    }
    lines.push(line);
  }
  return { code: Int32Array.from(code), lines: Int32Array.from(lines) };
}

export interface AsmFunction {
  readonly name?: string;
  readonly kind?: FunctionKind;
  readonly arity?: number;
  readonly maxStack?: number;
  readonly upvalues?: readonly UpvalueDescriptor[];
  readonly locals?: readonly LocalVariableInfo[];
  readonly code: readonly AsmItem[];
}

export function asmFunction(fn: AsmFunction, index: number): FunctionProto {
  const { code, lines } = assembleCode(fn.code);
  return {
    name: fn.name ?? (index === 0 ? '' : `f${index}`),
    kind: fn.kind ?? (index === 0 ? 'script' : 'function'),
    arity: fn.arity ?? 0,
    upvalues: fn.upvalues ?? [],
    code,
    lines,
    maxStack: fn.maxStack ?? 8,
    locals: fn.locals ?? [],
  };
}

export interface AsmModule {
  readonly constants?: readonly (number | string)[];
  readonly globals?: readonly string[];
  readonly hostImports?: readonly HostImport[];
  readonly spells?: readonly SpellEntry[];
  readonly sourceName?: string;
  readonly functions: readonly AsmFunction[];
}

export function asmModule(m: AsmModule): Module {
  return {
    constants: m.constants ?? [],
    globals: m.globals ?? [],
    hostImports: m.hostImports ?? [],
    spells: m.spells ?? [],
    sourceName: m.sourceName ?? 'test.spell',
    functions: m.functions.map(asmFunction),
  };
}
