/**
 * Which of a spell's parameters its code actually reads, found in the
 * bytecode: a parameter is a frame slot (slot 0 is the spell itself, then
 * caster, target …), read by an instruction with a `local` operand or
 * captured by a closure. Cast needs a picked target only for a spell that
 * reads its target.
 */
import type { Module } from '../../../vm/module.js';
import { OPCODES, Op } from '../../../vm/opcodes.js';

/** The parameter's name from the debug info, or null when the spell or parameter does not exist. */
export function parameterName(module: Module, spell: string, index: number): string | null {
  const fn = spellFunction(module, spell);
  if (!fn || index >= fn.arity) return null;
  return fn.locals.find((l) => l.slot === index + 1)?.name ?? (index === 0 ? 'caster' : 'target');
}

/** Does the spell's code read parameter `index` (0 = caster, 1 = target)? */
export function readsParameter(module: Module, spell: string, index: number): boolean {
  const fn = spellFunction(module, spell);
  if (!fn || index >= fn.arity) return false;
  const slot = index + 1;
  const code = fn.code;
  for (let pc = 0; pc < code.length; ) {
    const opcode = code[pc]!;
    const info = OPCODES[opcode];
    if (!info) return true; // unknown code: assume it does
    for (let k = 0; k < info.operands.length; k++) {
      if (info.operands[k] === 'local' && code[pc + 1 + k] === slot) return true;
    }
    if (opcode === Op.CLOSURE) {
      const inner = module.functions[code[pc + 1]!];
      if (inner?.upvalues.some((u) => u.isLocal && u.index === slot)) return true;
    }
    pc += 1 + info.operands.length;
  }
  return false;
}

function spellFunction(module: Module, spell: string) {
  const entry = module.spells.find((s) => s.name === spell);
  return entry ? module.functions[entry.functionIndex] : undefined;
}
