/**
 * What a function *does*, independent of where its module keeps things: its
 * instructions with every constant, name, global, host import and nested
 * function spelled out (not as indices), plus arity and upvalues. Two
 * compilations of the same function have the same fingerprint even when
 * other code moved the module's tables around or shifted its lines; live
 * reload uses it to say which spells really changed.
 */

import type { Module } from './module.js';
import { OPCODES } from './opcodes.js';

export function functionFingerprint(module: Module, functionIndex: number, seen: Set<number> = new Set()): string {
  const fn = module.functions[functionIndex];
  if (fn === undefined) return '?';
  if (seen.has(functionIndex)) return `<recursive ${fn.name}>`;
  seen.add(functionIndex);
  const parts: string[] = [fn.name, fn.kind, String(fn.arity), fn.upvalues.map((u) => `${u.isLocal ? 'l' : 'u'}${u.index}`).join(',')];
  const code = fn.code;
  for (let ip = 0; ip < code.length; ) {
    const info = OPCODES[code[ip]!];
    if (info === undefined) {
      parts.push(`?${code[ip]}`);
      ip++;
      continue;
    }
    const words: string[] = [info.name];
    info.operands.forEach((kind, k) => {
      const operand = code[ip + 1 + k]!;
      switch (kind) {
        case 'constant':
        case 'name':
          words.push(JSON.stringify(module.constants[operand] ?? null));
          break;
        case 'global':
          words.push(`g:${module.globals[operand] ?? operand}`);
          break;
        case 'host':
          words.push(`h:${module.hostImports[operand]?.name ?? operand}`);
          break;
        case 'function':
          words.push(`{${functionFingerprint(module, operand, seen)}}`);
          break;
        default:
          words.push(String(operand));
      }
    });
    parts.push(words.join(' '));
    ip += 1 + info.operands.length;
  }
  seen.delete(functionIndex);
  return parts.join('\n');
}
