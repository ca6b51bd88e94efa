import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from './compile.js';
import { tokenize } from './lexer.js';
import { estimateTokens, MAX_TOKENS } from './size-guard.js';

const spellsDir = new URL('../spells/', import.meta.url);

/** Tokens the lexer really produces, comments left out (they cost nothing later). */
function realTokens(source: string): number {
  return tokenize(source).filter((t) => t.kind !== 'comment').length;
}

describe('size guard', () => {
  it('never underestimates the lexer on the example spells', () => {
    for (const file of readdirSync(spellsDir).filter((f) => f.endsWith('.spell'))) {
      const source = readFileSync(new URL(file, spellsDir), 'utf8');
      expect(estimateTokens(source), file).toBeGreaterThanOrEqual(realTokens(source));
    }
  });

  it('never underestimates the lexer on random input', () => {
    const alphabet = fc.constantFrom(...'abc_19.+-*/=!<>(){}[];,"\n\r\t /é%\u0000'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 200 }).map((cs) => cs.join('')), (source) => {
        expect(estimateTokens(source)).toBeGreaterThanOrEqual(realTokens(source));
      }),
      { seed: 42, numRuns: 2000 },
    );
  });

  it('refuses a program with too many tokens with one clean diagnostic, quickly and without lexing it', () => {
    const statement = 'print 1 + 2 * 3;\n';
    const source = statement.repeat(Math.ceil((MAX_TOKENS + 1) / 6)); // 7 tokens a line
    const { module, diagnostics } = compile(source);
    expect(module).toBeNull();
    expect(diagnostics.map((d) => [d.line, d.message])).toEqual([
      [1, 'Program too large: more than 1,000,000 tokens.'],
    ]);
  });

  it('lets a large file through when most of it is comments or string contents', () => {
    const source = 'print "ok";\n// ' + 'x'.repeat(3_000_000) + '\nvar s = "' + 'y'.repeat(3_000_000) + '";\n';
    expect(compile(source).diagnostics).toEqual([]);
  });
});
