/**
 * The formatter over programs from the grammar (program-arbitrary.ts): each
 * is re-spaced at random — every gap between two tokens becomes spaces,
 * newlines, empty lines or `//` comments — then formatted. Formatting must
 * be idempotent, keep every comment, and compile to the same bytecode as
 * the program did (compiler/format/same-meaning.test-helper.ts).
 *
 * CI runs a few hundred fixed-seed cases; `npm run fuzz` runs 10,000 and more.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../compiler/lexer.js';
import { parse } from '../../compiler/parse.js';
import { expectFormatKeepsMeaning } from '../../compiler/format/same-meaning.test-helper.js';
import { checkProperty } from './fuzz-settings.js';
import { programArbitrary, renderProgram } from './program-arbitrary.js';

/** What may separate two tokens: all whitespace, or a comment (which always ends its line). */
const GAPS = [' ', ' ', ' ', '', '\n', '\n\n\n', '\t', '  \n    ', ' // note\n', '\n// own line\n', '\n\n// after a gap\n\n'];

/** `source` with each gap between tokens replaced by one drawn from GAPS (a space where tokens would merge). */
function respace(source: string, picks: readonly number[]): string {
  const tokens = tokenize(source).filter((t) => t.kind !== 'comment');
  let out = '';
  tokens.forEach((token, i) => {
    if (i > 0) {
      const gap = GAPS[picks[i % picks.length]! % GAPS.length]!;
      out += gap === '' ? ' ' : gap;
    }
    out += token.image;
  });
  return out + '\n';
}

const commentCount = (text: string) => tokenize(text).filter((t) => t.kind === 'comment').length;

const programs = fc.tuple(
  fc.oneof(programArbitrary({ world: false }), programArbitrary({ world: true })).map(renderProgram),
  fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
);

describe('the formatter over generated programs', () => {
  it('is idempotent, keeps every comment and compiles to the same bytecode', () => {
    let formatted = 0;
    const runs = checkProperty(
      'format: generated programs',
      fc.property(programs, ([program, picks]) => {
        const source = respace(program, picks);
        if (parse(source).diagnostics.some((d) => d.severity === 'error')) return;
        const text = expectFormatKeepsMeaning(source);
        expect(commentCount(text)).toBe(commentCount(source));
        formatted++;
      }),
      300,
    );
    // Most generated programs parse, so most cases check something.
    expect(formatted).toBeGreaterThan(runs * 0.8);
  });
});
