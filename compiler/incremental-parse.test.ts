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

const isError = (d: { severity: string }) => d.severity === 'error';

/**
 * Without errors, the tree, diagnostics and module of an incremental parse
 * equal a whole-file compile's; with them, it has errors too, and what it
 * reused from earlier versions gives what parsing this text afresh gives.
 */
function expectSameAsWhole(parser: IncrementalParser, source: string): void {
  const incremental = compileWithDetails(source, { tokenParser: parser });
  const whole = compileWithDetails(source);
  if (!whole.diagnostics.some(isError)) {
    expect(incremental.ast).toEqual(whole.ast);
    expect(incremental.diagnostics).toEqual(whole.diagnostics);
    expect(incremental.module).toEqual(whole.module);
    return;
  }
  expect(incremental.diagnostics.some(isError)).toBe(true);
  const afresh = compileWithDetails(source, { tokenParser: new IncrementalParser() });
  expect(incremental.ast).toEqual(afresh.ast);
  expect(incremental.diagnostics).toEqual(afresh.diagnostics);
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
    expect(parser.lastReuse.parsed).toBeLessThanOrEqual(1);
    expect(parser.lastReuse.reused).toBeGreaterThan(100);
  });

  it('gives what a whole parse gives without errors, and what a fresh parse gives with them, whatever the edit (property)', () => {
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

  it('parses again only the declaration with the syntax error, and keeps the others', () => {
    const spell = generateSpell(1000);
    const lines = spell.split('\n');
    const broken = lines.findIndex((l, i) => i > 500 && l.startsWith('  var '));
    lines[broken] = '  caster.';
    const parser = new IncrementalParser();
    const first = compileWithDetails(lines.join('\n'), { tokenParser: parser });
    expect(first.diagnostics.filter(isError).map((d) => [d.line, d.message])).toEqual([[broken + 2, "Expect property name after '.'."]]);
    lines[broken] = '  caster.w';
    const second = compileWithDetails(lines.join('\n'), { tokenParser: parser });
    expect(parser.lastReuse.parsed).toBe(1);
    expect(parser.lastReuse.reused).toBeGreaterThan(100);
    // Every other declaration is in the tree, as a whole-file parse of the text without the broken line has them.
    const fixed = [...lines];
    fixed.splice(broken, 1);
    expect(second.ast.body.length).toBe(compileWithDetails(fixed.join('\n')).ast.body.length);
  });

  it('cuts a declaration with a missing } where the next one starts a line', () => {
    const source = 'spell a(caster) {\n  print caster.wisdom;\n\nspell b(caster) {\n  print caster.x;\n}\nvar v = 1;\n';
    const parsed = compileWithDetails(source, { tokenParser: new IncrementalParser() });
    expect(parsed.ast.body.map((s) => (s.kind === 'Function' ? s.name.name : s.kind))).toEqual(['a', 'b', 'Var']);
    // Said at the end of the part that lacks it, not at the end of the file.
    expect(parsed.diagnostics.map((d) => [d.line, d.message])).toEqual([[2, "Expect '}' after block."]]);
    // A whole-file parse (compile(), cantrip check) keeps clox's reading: the rest of the file is a's body.
    expect(compile(source).diagnostics.map((d) => [d.line, d.message])).toEqual([
      [4, 'Spells must be declared at the top level.'],
      [8, "Expect '}' after block."],
    ]);
  });
});
