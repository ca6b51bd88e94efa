import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INSTRUCTIONS, INTERNAL_INSTRUCTIONS } from '../instructions/index.js';
import { interpreterSource } from './interpreter-source.js';

const generated = fileURLToPath(new URL('../generated/interpreter.ts', import.meta.url));

describe('vm/generated/interpreter.ts', () => {
  it('is what the generator writes from the instruction definitions (run `npm run generate` after changing one)', () => {
    expect(readFileSync(generated, 'utf8')).toBe(interpreterSource());
  });

  it('has every macro of every definition expanded', () => {
    const source = interpreterSource();
    for (const macro of ['FAULT(', 'CHARGE(', 'HEAP(', 'OUT_OF_FUEL(', 'JUMP(', 'RESUME_AT(', 'GOTO(', 'DISPATCH(', 'ENTER(', 'CALL_OUT(', 'ARG_BASE(', 'ARG(', 'ENTER_HOST(', 'LOCAL(', '$0', '$1']) {
      expect(source, macro).not.toMatch(new RegExp(`\\b${macro.replace(/[($]/g, '\\$&')}`));
    }
    expect(source).not.toMatch(/\b(AT|NEXT|IC)\b/);
  });

  it('every definition documents itself and names its operands', () => {
    for (const def of [...INSTRUCTIONS, ...INTERNAL_INSTRUCTIONS.continuations, ...INTERNAL_INSTRUCTIONS.microInstructions]) {
      expect(def.doc.length, def.name).toBeGreaterThan(5);
      expect(def.name).toMatch(/^[A-Z][A-Z_0-9]*$/);
    }
  });
});
