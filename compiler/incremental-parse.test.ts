import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSpell } from '../bench/playground/spell-generator.js';
import { compile, compileWithDetails } from './compile.js';
import { IncrementalParser } from './incremental-parse.js';

const SPELLS = new URL('../spells/', import.meta.url);
const corpus = readdirSync(SPELLS)
  .filter((f) => f.endsWith('.spell'))
  .map((f) => readFileSync(new URL(f, SPELLS), 'utf8'));

/** The tree, diagnostics and module of an incremental parse equal a whole-file compile's. */
function expectSameAsWhole(parser: IncrementalParser, source: string): void {
  const incremental = compileWithDetails(source, { tokenParser: parser });
  const whole = compileWithDetails(source);
  expect(incremental.ast).toEqual(whole.ast);
  expect(incremental.diagnostics).toEqual(whole.diagnostics);
  expect(incremental.module).toEqual(whole.module);
}

describe('incremental parsing', () => {
  it('reuses every untouched top-level statement after a one-line edit of a 1,000-line spell', () => {
    const spell = generateSpell(1000);
    const parser = new IncrementalParser();
    compile(spell, { tokenParser: parser });
    const lines = spell.split('\n');
    lines[500] = ' ' + lines[500];
    expectSameAsWhole(parser, lines.join('\n'));
    compile(lines.join('\n'), { tokenParser: parser });
    expect(parser.lastReuse.whole).toBe(false);
    expect(parser.lastReuse.parsed).toBeLessThanOrEqual(1);
    expect(parser.lastReuse.reused).toBeGreaterThan(100);
  });

  it('gives exactly what a whole parse gives, whatever the edit (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...corpus),
        fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 6 }), insert: fc.constantFrom('', ' ', '\n', ';', '}', '{', 'var x = 1;', 'fun f() {}', 'x', '"', '(', '// c\n', 'spell s(c) {}') }), { minLength: 1, maxLength: 4 }),
        (source, edits) => {
          const parser = new IncrementalParser();
          let text = source;
          compile(text, { tokenParser: parser });
          for (const edit of edits) {
            const at = edit.at % (text.length + 1);
            text = text.slice(0, at) + edit.insert + text.slice(at + edit.remove);
            expectSameAsWhole(parser, text);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
