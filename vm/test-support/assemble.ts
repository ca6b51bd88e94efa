/**
 * A tiny assembler for hand-written test modules, so VM tests do not depend
 * on the compiler. Each function's code is text, one instruction per line:
 *
 *     CONSTANT 0
 *   top:              (a label)
 *     JUMP_IF_FALSE end
 *     @3              (following instructions are on source line 3)
 *     LOOP top
 *   end:
 */

import type { FunctionKind, FunctionProto, HostImport, LocalVariableInfo, Module, SpellEntry, UpvalueDescriptor } from '../module.js';
import { OPCODES, Op } from '../opcodes.js';

export interface FunctionSource {
  name?: string;
  kind?: FunctionKind;
  arity?: number;
  upvalues?: UpvalueDescriptor[];
  maxStack?: number;
  locals?: LocalVariableInfo[];
  code: string;
}

export interface ModuleSource {
  constants?: (number | string)[];
  globals?: string[];
  hostImports?: HostImport[];
  spells?: SpellEntry[];
  functions: FunctionSource[];
}

export function assembleFunction(source: FunctionSource): FunctionProto {
  const words: number[] = [];
  const lines: number[] = [];
  const labels = new Map<string, number>();
  const fixups: { at: number; label: string }[] = [];
  let line = 1;
  for (const raw of source.code.split('\n')) {
    const text = raw.replace(/\/\/.*$/, '').trim();
    if (text === '') continue;
    if (text.startsWith('@')) {
      line = Number(text.slice(1));
      continue;
    }
    if (text.endsWith(':')) {
      labels.set(text.slice(0, -1), words.length);
      continue;
    }
    const [name, ...operands] = text.split(/\s+/);
    const opcode = (Op as Record<string, number>)[name!];
    if (opcode === undefined) throw new Error(`unknown opcode ${name}`);
    const kinds = OPCODES[opcode]!.operands;
    if (operands.length !== kinds.length) throw new Error(`${name} takes ${kinds.length} operands`);
    words.push(opcode);
    lines.push(line);
    operands.forEach((operand, i) => {
      if (kinds[i] === 'jump' && !/^-?\d+$/.test(operand)) {
        fixups.push({ at: words.length, label: operand });
        words.push(0);
      } else {
        words.push(Number(operand));
      }
      lines.push(line);
    });
  }
  for (const { at, label } of fixups) {
    const target = labels.get(label);
    if (target === undefined) throw new Error(`unknown label ${label}`);
    words[at] = target;
  }
  return {
    name: source.name ?? '',
    kind: source.kind ?? (source.name ? 'function' : 'script'),
    arity: source.arity ?? 0,
    upvalues: source.upvalues ?? [],
    code: Int32Array.from(words),
    lines: Int32Array.from(lines),
    maxStack: source.maxStack ?? 64,
    locals: source.locals ?? [],
  };
}

export function assemble(source: ModuleSource): Module {
  return {
    constants: source.constants ?? [],
    functions: source.functions.map(assembleFunction),
    globals: source.globals ?? [],
    hostImports: source.hostImports ?? [],
    spells: source.spells ?? [],
    sourceName: '<test>',
  };
}
